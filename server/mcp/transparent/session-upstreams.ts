// A transparent session (`/mcp/s/<slug>`) talks to its own upstream MCP session: logging levels, resource
// subscriptions and the client capabilities (sampling, elicitation, roots) are per connection in MCP, so
// agents cannot share one. This process keeps one upstream connection per agent session it serves; the
// session's protocol state lives in PostgreSQL (`mcp_sessions.state`), so any process can rebuild it.
// Each upstream is a process (stdio) or a connection: how many this process holds, per agent session, user,
// server and in all, is bounded by upstream-capacity.ts; a slot is claimed before anything is spawned.
import { ResultSchema, type ClientCapabilities, type LoggingLevel } from "@modelcontextprotocol/sdk/types.js";
import type { Db } from "../../db/client";
import type { ChangeBus } from "../../events/change-bus";
import type { Logger } from "../../logger";
import { canonicalJson } from "../../registry/content-hash";
import type { ServerRoute } from "../../registry/create-registry";
import type { SessionStderr } from "../../upstream/session-stderr";
import { connectUpstream, type ProcessLauncher } from "../../upstream/upstream-client";
import type { BearerSource } from "../../upstream/bearer-fetch";
import { takeCallerCapabilities } from "../../upstream/modern/modern-wire";
import { agentRelay } from "./agent-relay";
import { PendingReplies } from "./pending-replies";
import { readState, saveState, type SessionState } from "./session-state";
import { createUpstreamCapacity, type CapacityLimits, type Slot } from "./upstream-capacity";
import { LISTEN_SESSION_PREFIX } from "../modern/listen-streams";
import { STATELESS_SESSION_PREFIX } from "../modern/stateless-view";

export type { InFlight, LiveSession } from "./live-session";
import type { InFlight, LiveSession } from "./live-session";

/** Whom an upstream session serves, for its limits: the agent session (or the MCP session) and the user. */
export type SessionOwner = {
  sessionKey: string;
  userId: string;
  /** The agent's external bearer (enterprise mode), for a token_exchange upstream; never stored. */
  subjectToken?: (() => string) | undefined;
};

export type SessionUpstreamsOptions = {
  /** Processes per agent session, user, server and gateway process, and when idle ones are closed. */
  limits: CapacityLimits;
  relayTimeoutMs: number;
  connectTimeoutMs: number;
  /** Sandboxes stdio processes and resolves secrets (the gateway's); absent in unit setups. */
  launcher?: ProcessLauncher | undefined;
  /** The clock of idle times (tests drive the reaper with their own). */
  now: () => number;
  /**
   * The bearer of an upstream that authenticates its callers (issue 22), asked on every request of the session:
   * the session's user's credential (the session is theirs alone). Undefined: the server needs none.
   */
  bearer?: ((route: ServerRoute, owner: SessionOwner) => BearerSource | undefined) | undefined;
};
const DEFAULTS = { relayTimeoutMs: 5 * 60_000, connectTimeoutMs: 15_000, now: Date.now };

export function createSessionUpstreams(deps: { db: Db; bus: ChangeBus; logger: Logger; stderr?: SessionStderr | undefined }, options: Partial<SessionUpstreamsOptions> & Pick<SessionUpstreamsOptions, "limits">) {
  const opts = { ...DEFAULTS, ...options };
  const log = deps.logger.child({ component: "transparent" });
  const live = new Map<string, LiveSession>();
  /** Sessions being connected, with the requests that will use them (registered as in flight when it is live). */
  const connecting = new Map<string, { ready: Promise<LiveSession>; leases: InFlight[] }>();
  /** Processes being closed: a new one is spawned only once these have exited, so the limits hold for processes. */
  const exiting = new Set<Promise<void>>();
  const capacity = createUpstreamCapacity(opts.limits, opts.now);
  const replies = new PendingReplies();

  /**
   * Idle since its last request; never while a request is in flight or it is connecting. A slot reserved by an
   * initialize that never reached the relay (refused by the transport) is idle "forever" once the connect
   * timeout has passed, so the next sweep or claim frees it.
   */
  const idleSinceOf = (mcpSessionId: string, claimedAt: number) => (): number | null => {
    const s = live.get(mcpSessionId);
    if (s) return s.inFlight.length === 0 ? s.lastUsedAt : null;
    if (connecting.has(mcpSessionId)) return null;
    return opts.now() - claimedAt > opts.connectTimeoutMs ? -Infinity : null;
  };

  const unsubscribe = deps.bus.subscribe((e) => {
    if (e.kind === "session-closed") void close(e.mcpSessionId);
    else if (e.kind === "session-in") void agent.fromAgent(e.mcpSessionId, e.message as Record<string, unknown>);
  });

  /** Closes the upstream sessions whose slots were taken away (reaped or evicted); returns when they have exited. */
  function closeRemoved(removed: Slot[]): Promise<unknown> {
    for (const r of removed) {
      const s = live.get(r.mcpSessionId);
      live.delete(r.mcpSessionId);
      replies.dropSession(r.mcpSessionId);
      if (s) closeConnection(s);
      // A listen stream's upstream session is not reopened by a next request: its stream ends (gracefully, so its
      // client listens again) rather than going quiet.
      if (r.mcpSessionId.startsWith(LISTEN_SESSION_PREFIX)) void deps.bus.publish({ kind: "session-closed", mcpSessionId: r.mcpSessionId }).catch(() => undefined);
    }
    return Promise.all([...exiting]);
  }

  function closeConnection(s: LiveSession) {
    const done = s.conn.close().catch(() => undefined);
    exiting.add(done);
    void done.finally(() => exiting.delete(done));
  }

  /** Claims a slot for the session (throws upstream_capacity); resolves once what it displaced has exited. */
  function claim(mcpSessionId: string, route: ServerRoute, owner: SessionOwner): { slot: Slot; displaced: Promise<unknown> } {
    const { slot, removed } = capacity.claim(
      { mcpSessionId, sessionKey: owner.sessionKey, userId: owner.userId, serverId: route.serverId, slug: route.slug },
      idleSinceOf(mcpSessionId, opts.now()),
    );
    return { slot, displaced: closeRemoved(removed) };
  }

  // Under pressure the idle timeout falls to limits.pressureIdleMs: sweep often enough for that.
  const sweeper = setInterval(() => void closeRemoved(capacity.expire()), Math.min(30_000, Math.max(1_000, opts.limits.pressureIdleMs / 2)));
  sweeper.unref();

  // What the upstream sends the agent, and what the agent answers (agent-relay.ts).
  const agent = agentRelay({ bus: deps.bus, log, replies, relayTimeoutMs: opts.relayTimeoutMs, live });

  async function connect(mcpSessionId: string, route: ServerRoute, capabilities: ClientCapabilities, replay: SessionState | null, slot: Slot, owner: SessionOwner): Promise<LiveSession> {
    // Only what the agent itself supports is offered upstream, so the upstream never asks for what cannot be answered.
    const offered: ClientCapabilities = {
      ...(capabilities.sampling && { sampling: capabilities.sampling }),
      ...(capabilities.elicitation && { elicitation: capabilities.elicitation }),
      ...(capabilities.roots && { roots: capabilities.roots }),
    };
    const holder: { session?: LiveSession } = {};
    const bearer = opts.bearer?.(route, owner);
    // An upstream may ask (roots/list) as soon as it is initialized, before connect() has returned here.
    let markReady: (s: LiveSession) => void = () => {};
    const ready = new Promise<LiveSession>((resolve) => (markReady = resolve));
    const sessionTag = mcpSessionId.slice(0, 8);
    // Its stderr joins the server's logs (the Logs tab), marked with the session, as the pooled process's does.
    const stderr = route.launch.transport === "STDIO" ? deps.stderr?.open(route.serverId, sessionTag, route.launch) : undefined;
    const connected = connectUpstream(
      route.launch,
      {
        onClose: (reason) => {
          stderr?.end(reason);
          if (holder.session && live.get(mcpSessionId) === holder.session) {
            live.delete(mcpSessionId);
            capacity.release(mcpSessionId, slot);
          }
        },
        onStderr: (line) => {
          stderr?.push(line);
          log.debug({ server: route.slug, line }, "upstream stderr");
        },
      },
      {
        timeoutMs: opts.connectTimeoutMs,
        capabilities: offered,
        launcher: opts.launcher,
        key: { serverId: route.serverId, slug: route.slug, role: `session-${sessionTag}` },
        bearer,
        // A 2026-07-28 upstream's input_required: a 2026 client's stateless requests (stateless-view.ts names their
        // sessions) answer it themselves; a 2025 agent gets it as requests relayed by the handlers below.
        inputMode: mcpSessionId.startsWith(STATELESS_SESSION_PREFIX) ? "passthrough" : "translate",
        tools: route.defs.tools,
        configure: (client) => {
          client.fallbackRequestHandler = async (request, extra) => agent.ask(await ready, request, extra.signal);
          client.fallbackNotificationHandler = async (n) => {
            if (holder.session) agent.notify(holder.session, n);
          };
        },
      },
    );
    const conn = await connected.catch((err: unknown) => {
      stderr?.end(err instanceof Error ? err.message : String(err));
      throw err;
    });
    const session: LiveSession = { mcpSessionId, route, conn, client: conn.client, inFlight: [], lastUsedAt: opts.now(), bearer };
    holder.session = session;
    markReady(session);
    if (replay?.logLevel) await conn.client.setLoggingLevel(replay.logLevel).catch(() => undefined);
    for (const uri of replay?.subscriptions ?? []) await conn.client.subscribeResource({ uri }).catch(() => undefined);
    return session;
  }

  async function close(mcpSessionId: string) {
    // A session still connecting is closed once connected: until then its process counts against the limits.
    await connecting.get(mcpSessionId)?.ready.catch(() => undefined);
    const s = live.get(mcpSessionId);
    live.delete(mcpSessionId);
    capacity.release(mcpSessionId);
    replies.dropSession(mcpSessionId);
    if (s) closeConnection(s);
    await Promise.all([...exiting]);
  }

  return {
    /**
     * Claims the upstream slot of a session being initialized, before its answer starts, so that a refusal
     * (`upstream_capacity`, a GatewayError with retryAfterSeconds) can be the HTTP answer.
     */
    reserve(mcpSessionId: string, route: ServerRoute, owner: SessionOwner): void {
      void claim(mcpSessionId, route, owner).displaced;
    },
    /**
     * The initialize that reserved a slot was refused by the transport and never reached the relay: the slot is
     * freed at once. (Waiting for the connect timeout let a burst of malformed initializes fill every limit.)
     */
    abandon(mcpSessionId: string): void {
      if (!live.has(mcpSessionId) && !connecting.has(mcpSessionId)) capacity.release(mcpSessionId);
    },
    /**
     * This process's upstream session for `mcpSessionId`, connected (and its state replayed from PostgreSQL)
     * when missing or when the session's version now runs elsewhere (promote, rollback, canary change).
     * `lease` (the request that will use it) is registered in flight before the session is returned, so no
     * claim of another session can take it for idle in between. Throws `upstream_capacity` when no slot is free.
     */
    async get(mcpSessionId: string, route: ServerRoute, capabilities: ClientCapabilities, isNew: boolean, owner: SessionOwner, lease?: InFlight): Promise<LiveSession> {
      const existing = live.get(mcpSessionId);
      if (existing && existing.route.versionId === route.versionId && canonicalJson(existing.route.launch) === canonicalJson(route.launch)) {
        existing.lastUsedAt = opts.now();
        if (lease) existing.inFlight.push(lease);
        return existing;
      }
      if (existing) await close(mcpSessionId);
      const pending = connecting.get(mcpSessionId);
      if (pending) {
        if (lease) pending.leases.push(lease);
        return pending.ready;
      }
      // Claimed here, synchronously with the checks above: concurrent requests cannot over-admit.
      const { slot, displaced } = claim(mcpSessionId, route, owner);
      const leases = lease ? [lease] : [];
      const ready = (async () => {
        try {
          await displaced;
          const replay = isNew ? null : await readState(deps.db, mcpSessionId);
          const s = await connect(mcpSessionId, route, capabilities, replay, slot, owner);
          live.set(mcpSessionId, s);
          s.inFlight.push(...leases);
          return s;
        } catch (err) {
          capacity.release(mcpSessionId, slot);
          throw err;
        } finally {
          connecting.delete(mcpSessionId);
        }
      })();
      connecting.set(mcpSessionId, { ready, leases });
      return ready;
    },
    /** A reply from the agent to a relayed request: settled here, or on the process that is waiting for it. */
    async replyFromAgent(mcpSessionId: string, message: Record<string, unknown>) {
      if (!replies.settle(mcpSessionId, message)) await deps.bus.publish({ kind: "session-in", mcpSessionId, message });
    },
    /** A notification from the agent for its upstream session, wherever that is held. */
    async notificationFromAgent(mcpSessionId: string, message: Record<string, unknown>) {
      await deps.bus.publish({ kind: "session-in", mcpSessionId, message });
    },
    /** Forwards any request as it is. */
    forward(s: LiveSession, method: string, params: Record<string, unknown> | undefined, o: { signal: AbortSignal; timeoutMs: number; onprogress?: ((p: { progress: number; total?: number | undefined; message?: string | undefined }) => void) | undefined }) {
      // A 2026 client's capabilities are for a 2026 upstream only (modern-wire.ts).
      const sent = s.conn.generation === "2026-07-28" ? params : takeCallerCapabilities(params).params;
      return s.client.request({ method, ...(sent && { params: sent }) }, ResultSchema, {
        signal: o.signal,
        timeout: o.timeoutMs,
        resetTimeoutOnProgress: true,
        ...(o.onprogress && { onprogress: o.onprogress }),
      });
    },
    saveState: (mcpSessionId: string, change: { logLevel: LoggingLevel } | { subscribe: string } | { unsubscribe: string }) => saveState(deps.db, mcpSessionId, change),
    /** How many upstream sessions this process holds (for status and tests). */
    size: () => live.size,
    /** Closes the idle sessions past their timeout at the current pressure, oldest first (the sweeper's work). */
    reap: () => closeRemoved(capacity.expire()),
    /** For /metrics: processes by server, refusals by limit kind, reaped by reason, the limits. */
    stats: () => capacity.stats(),
    async closeAll() {
      clearInterval(sweeper);
      unsubscribe();
      await Promise.all([...new Set([...live.keys(), ...connecting.keys()])].map((id) => close(id)));
    },
  };
}

export type SessionUpstreams = ReturnType<typeof createSessionUpstreams>;
