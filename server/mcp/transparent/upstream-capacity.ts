// How many upstream processes the transparent endpoint may hold: per agent session, per user, per server and
// per gateway process. A slot is claimed synchronously before anything is spawned (JavaScript runs one claim
// at a time, so concurrent initializes cannot over-admit), and a process counts until it has exited (see
// session-upstreams.ts). Idle processes are reaped after `idleMs`, sooner as a limit fills up.
import { GatewayError, isGatewayError } from "../../errors";

export type CapacityLimits = {
  perSession: number;
  perUser: number;
  perServer: number;
  perProcess: number;
  /** An idle process is closed after this long while no limit it counts against is under pressure. */
  idleMs: number;
  /** … and after this long when one of them is full; in between the timeout falls linearly. */
  pressureIdleMs: number;
  /** Pressure starts when a count passes this fraction of its limit. */
  pressureFraction: number;
};

export const LIMIT_KINDS = ["session", "user", "server", "process"] as const;
export type LimitKind = (typeof LIMIT_KINDS)[number];

/** Who a process serves: the MCP session, its agent session (or the MCP session when it has none), user, server. */
export type SlotKey = { mcpSessionId: string; sessionKey: string; userId: string; serverId: string; slug: string };

export type Slot = SlotKey & {
  claimedAt: number;
  /** Since when the process has been idle; null while it is busy, starting, or reserved for an initialize. */
  idleSince: () => number | null;
};

export type ReapReason = "idle" | "pressure" | "evicted";

const inScope = (kind: LimitKind, key: SlotKey) => (s: SlotKey) =>
  kind === "session" ? s.sessionKey === key.sessionKey : kind === "user" ? s.userId === key.userId : kind === "server" ? s.serverId === key.serverId : true;

/** The idle timeout at an occupancy (count / limit, the highest of the limits a process counts against). */
export function idleTimeoutMs(limits: CapacityLimits, occupancy: number): number {
  if (occupancy <= limits.pressureFraction || limits.pressureFraction >= 1) return limits.idleMs;
  const over = Math.min(1, (occupancy - limits.pressureFraction) / (1 - limits.pressureFraction));
  return Math.round(limits.idleMs - (limits.idleMs - limits.pressureIdleMs) * over);
}

export function isUpstreamCapacityError(err: unknown): err is GatewayError & { details: { limit: LimitKind; max: number } } {
  return isGatewayError(err) && err.code === "upstream_capacity";
}

export function createUpstreamCapacity(limits: CapacityLimits, now: () => number) {
  const slots = new Map<string, Slot>();
  const refusals: Record<LimitKind, number> = { session: 0, user: 0, server: 0, process: 0 };
  const reaped: Record<ReapReason, number> = { idle: 0, pressure: 0, evicted: 0 };
  const max: Record<LimitKind, number> = { session: limits.perSession, user: limits.perUser, server: limits.perServer, process: limits.perProcess };

  const count = (kind: LimitKind, key: SlotKey) => [...slots.values()].filter(inScope(kind, key)).length;
  const occupancy = (key: SlotKey) => Math.max(...LIMIT_KINDS.map((k) => count(k, key) / max[k]));

  /** Idle processes past their timeout at the current pressure, oldest first; each removal relieves the rest. */
  function expire(): Slot[] {
    const t = now();
    const idle = [...slots.values()]
      .map((s) => ({ s, since: s.idleSince() }))
      .filter((x): x is { s: Slot; since: number } => x.since !== null)
      .sort((a, b) => a.since - b.since);
    const out: Slot[] = [];
    for (const { s, since } of idle) {
      const o = occupancy(s);
      if (t - since <= idleTimeoutMs(limits, o)) continue;
      slots.delete(s.mcpSessionId);
      reaped[t - since > limits.idleMs ? "idle" : "pressure"]++;
      out.push(s);
    }
    return out;
  }

  /** When a slot in scope may next be free: an idle one once reapable at full pressure, else a busy one's turn. */
  function retryAfterSeconds(kind: LimitKind, key: SlotKey): number {
    const t = now();
    const at = [...slots.values()].filter(inScope(kind, key)).map((s) => {
      const since = s.idleSince();
      return since === null ? t + limits.pressureIdleMs : since + limits.pressureIdleMs;
    });
    return Math.max(1, Math.ceil((Math.min(...at, t + limits.pressureIdleMs) - t) / 1000));
  }

  return {
    /**
     * Claims a slot for `key` (no-op when the MCP session holds one), first reaping what has expired, then,
     * over a limit, evicting the same user's longest-idle process in that limit's scope. Returns the slots
     * removed: the caller closes them, and spawns only once they have exited. Throws `upstream_capacity`.
     */
    claim(key: SlotKey, idleSince: () => number | null): { slot: Slot; removed: Slot[] } {
      const held = slots.get(key.mcpSessionId);
      if (held) return { slot: held, removed: [] };
      const removed = expire();
      for (;;) {
        const kind = LIMIT_KINDS.find((k) => count(k, key) >= max[k]);
        if (!kind) break;
        const victim = [...slots.values()]
          .filter((s) => inScope(kind, key)(s) && s.userId === key.userId)
          .map((s) => ({ s, since: s.idleSince() }))
          .filter((x): x is { s: Slot; since: number } => x.since !== null)
          .sort((a, b) => a.since - b.since)[0]?.s;
        if (!victim) {
          refusals[kind]++;
          const retry = retryAfterSeconds(kind, key);
          const message =
            kind === "session" || kind === "user"
              ? `${kind === "session" ? "This agent session" : "This user"} already has ${String(max[kind])} upstream processes of /mcp/s sessions running (the ${kind} limit), all busy. Close a session you no longer use (DELETE /mcp/s/<server>) or try again in ${String(retry)} s.`
              : `${kind === "server" ? `The server ${key.slug}` : "This gateway process"} already runs ${String(max[kind])} upstream processes of /mcp/s sessions (the ${kind} limit). Try again in ${String(retry)} s.`;
          throw new GatewayError("upstream_capacity", message, { limit: kind, max: max[kind] }, { retryAfterSeconds: retry });
        }
        slots.delete(victim.mcpSessionId);
        reaped.evicted++;
        removed.push(victim);
      }
      const slot: Slot = { ...key, claimedAt: now(), idleSince };
      slots.set(key.mcpSessionId, slot);
      return { slot, removed };
    },
    /** Frees the session's slot (only this claim: a newer one for the same session stays). */
    release(mcpSessionId: string, slot?: Slot) {
      if (!slot || slots.get(mcpSessionId) === slot) slots.delete(mcpSessionId);
    },
    holds: (mcpSessionId: string) => slots.has(mcpSessionId),
    expire,
    /** For /metrics: processes by server slug, refusals by limit kind, reaped by reason. */
    stats() {
      const perServer: Record<string, number> = {};
      for (const s of slots.values()) perServer[s.slug] = (perServer[s.slug] ?? 0) + 1;
      return { perServer, refusals: { ...refusals }, reaped: { ...reaped }, limits: { ...max } };
    },
  };
}

export type UpstreamCapacity = ReturnType<typeof createUpstreamCapacity>;
