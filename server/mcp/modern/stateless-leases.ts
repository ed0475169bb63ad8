// Which of an agent session's stateless upstream sessions to a server a request may use: one that no other
// request is using. A 2025 upstream's requests to the client (elicitation, sampling) carry no link to the call
// they belong to, so two calls in flight on one upstream session could receive each other's; each stateless
// call therefore holds its upstream session alone until its handling ends (an MRTR continuation included).
// Sessions are reused in order, so a sequential client keeps one; idle ones are reaped like any other.
export function createStatelessLeases() {
  const busy = new Map<string, Set<number>>();
  return {
    /** The handle to use under `base`, and its release (idempotent). */
    acquire(base: string): { id: string; release: () => void } {
      const used = busy.get(base) ?? new Set<number>();
      busy.set(base, used);
      let n = 0;
      while (used.has(n)) n++;
      used.add(n);
      let released = false;
      return {
        id: n === 0 ? base : `${base}-${n}`,
        release: () => {
          if (released) return;
          released = true;
          used.delete(n);
          if (used.size === 0) busy.delete(base);
        },
      };
    },
    /** Handles in use (for tests and status). */
    inUse: () => [...busy.values()].reduce((sum, s) => sum + s.size, 0),
  };
}

export type StatelessLeases = ReturnType<typeof createStatelessLeases>;
