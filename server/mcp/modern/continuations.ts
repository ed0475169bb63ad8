// MRTR continuations: a 2026 request whose handling behind (a 2025 upstream) asked the client for input is
// answered `input_required` while the handling stays in flight, held here until the client's retry brings the
// input. Held in this process (the upstream call is); a retry that reaches another process, or comes after
// `ttlMs`, finds nothing and is refused. Taken once: a replayed requestState finds nothing either.
import { randomUUID } from "node:crypto";
import { createRequestStates, type StateBinding } from "./request-state";

/** How long a continuation waits for its retry: the relay's own wait for a client's reply (session-upstreams.ts). */
export const MRTR_HOLD_MS = 5 * 60_000;

/** One input the handling behind waits for: the relayed request's id and what it asked. */
export type PendingInput = { relayId: string | number; method: string; params: unknown };

export type Continuation = {
  /** The rest of the handling's answer stream. */
  messages: AsyncGenerator<Record<string, unknown>>;
  /** By the key the client answers under in `inputResponses`. */
  pending: Map<string, PendingInput>;
  /** The handling it continues: the handle its upstream session is known by (replies go there) and its request id. */
  origin: Origin;
};

/** A handling behind a 2026 request: its handle (stateless-view.ts) and the JSON-RPC id it runs under. */
export type Origin = { mcpSessionId: string; requestId: string | number };

export function createContinuations(opts: { ttlMs: number; now?: () => number }) {
  const now = opts.now ?? Date.now;
  const states = createRequestStates();
  const held = new Map<string, { c: Continuation; timer: NodeJS.Timeout }>();
  const drop = (id: string) => {
    const h = held.get(id);
    if (!h) return;
    held.delete(id);
    clearTimeout(h.timer);
    // Given up: the stream behind is cancelled (the relay answers the upstream's request with a timeout error).
    void h.c.messages.return(undefined).catch(() => undefined);
  };
  return {
    /** Holds `c` and returns the requestState that names it. */
    hold(c: Continuation, binding: StateBinding): string {
      const id = randomUUID();
      const timer = setTimeout(() => drop(id), opts.ttlMs);
      timer.unref();
      held.set(id, { c, timer });
      return states.issue(id, binding, now() + opts.ttlMs);
    },
    /** The continuation `token` names, removed, when the token is intact and bound to this request. */
    take(token: unknown, binding: StateBinding): Continuation | { refused: string } {
      const opened = states.open(token, binding, now());
      if ("refused" in opened) return opened;
      const h = held.get(opened.id);
      if (!h) return { refused: "requestState was already used, has expired, or is held by another gateway process" };
      held.delete(opened.id);
      clearTimeout(h.timer);
      return h.c;
    },
    size: () => held.size,
    closeAll() {
      for (const id of [...held.keys()]) drop(id);
    },
  };
}

export type Continuations = ReturnType<typeof createContinuations>;
