// The subscriptions/listen streams this process holds, by agent session: at most `perSession` at once (a
// client that opens streams in a loop holds no more than that), and all of them ended gracefully when the
// gateway shuts down (the spec's successful listen response before the stream closes).

/** The upstream sessions of listen streams on /mcp/s (serve-listen.ts): `listen-<uuid>`. */
export const LISTEN_SESSION_PREFIX = "listen-";

/** Open listen streams per agent session and process. A client needs one; a few spare cover reconnects. */
export const MAX_LISTEN_STREAMS_PER_SESSION = 8;

export function createListenStreams(perSession = MAX_LISTEN_STREAMS_PER_SESSION) {
  const open = new Map<string, Set<() => void>>();
  return {
    perSession,
    /** Registers a stream (`end` ends it gracefully); null when the agent session holds `perSession` already. */
    add(agentSessionId: string, end: () => void): { release: () => void } | null {
      const held = open.get(agentSessionId) ?? new Set();
      if (held.size >= perSession) return null;
      held.add(end);
      open.set(agentSessionId, held);
      return {
        release: () => {
          held.delete(end);
          if (held.size === 0 && open.get(agentSessionId) === held) open.delete(agentSessionId);
        },
      };
    },
    count: (agentSessionId?: string) => (agentSessionId === undefined ? [...open.values()].reduce((n, s) => n + s.size, 0) : (open.get(agentSessionId)?.size ?? 0)),
    endAll() {
      for (const held of [...open.values()]) for (const end of [...held]) end();
    },
  };
}

export type ListenStreams = ReturnType<typeof createListenStreams>;
