// MRTR continuations: a 2026 request whose handling behind (a 2025 upstream) asked the client for input is
// answered `input_required` while the handling stays in flight, held here until the client's retry brings the
// input. Held in this process (the upstream call is); its requestState names this process, so a retry that
// reaches another one is forwarded here over the change bus (forward-retry.ts). Taken once: a replayed
// requestState finds nothing, here or from elsewhere; after `ttlMs` it is given up.
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

/** A state this process may not take itself: the continuation is held by the process `holder`. */
export type Elsewhere = { elsewhere: { id: string; holder: string } };

const USED = "requestState was already used or has expired";

/**
 * `key`: the deployment's requestState key (request-state.ts `requestStateKey`), read on first use (a key that
 * cannot be read fails that use, and is read again next time); `holder`: this process's id.
 */
export function createContinuations(opts: { ttlMs: number; key: () => Promise<Buffer>; holder?: string; now?: () => number }) {
  const now = opts.now ?? Date.now;
  const holder = opts.holder ?? randomUUID();
  let loaded: Promise<ReturnType<typeof createRequestStates>> | undefined;
  const statesNow = () =>
    (loaded ??= opts.key().then(createRequestStates, (err: unknown) => {
      loaded = undefined;
      throw err;
    }));
  const held = new Map<string, { c: Continuation; timer: NodeJS.Timeout }>();
  const drop = (id: string) => {
    const h = held.get(id);
    if (!h) return;
    held.delete(id);
    clearTimeout(h.timer);
    // Given up: the stream behind is cancelled (the relay answers the upstream's request with a timeout error).
    void h.c.messages.return(undefined).catch(() => undefined);
  };
  const takeHeld = (id: string): Continuation | { refused: string } => {
    const h = held.get(id);
    if (!h) return { refused: USED };
    held.delete(id);
    clearTimeout(h.timer);
    return h.c;
  };
  return {
    holder,
    /** Holds `c` and returns the requestState that names it. */
    async hold(c: Continuation, binding: StateBinding): Promise<string> {
      const s = await statesNow();
      const id = randomUUID();
      const timer = setTimeout(() => drop(id), opts.ttlMs);
      timer.unref();
      held.set(id, { c, timer });
      return s.issue(id, holder, binding, now() + opts.ttlMs);
    },
    /** The continuation `token` names, removed, when the token is intact and bound to this request; or its holder. */
    async take(token: unknown, binding: StateBinding): Promise<Continuation | Elsewhere | { refused: string }> {
      const opened = (await statesNow()).open(token, binding, now());
      if ("refused" in opened) return opened;
      if (opened.holder !== holder) return { elsewhere: opened };
      return takeHeld(opened.id);
    },
    /** For a retry forwarded from another process, which checked its state and binding already. */
    takeForwarded: takeHeld,
    size: () => held.size,
    closeAll() {
      for (const id of [...held.keys()]) drop(id);
    },
  };
}

export type Continuations = ReturnType<typeof createContinuations>;
