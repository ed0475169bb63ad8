// Live connections to upstream servers, one per (server, role): "active" serves everyone, "canary" the
// sessions in the canary share. Health pings, reconnect with backoff (a crashed stdio process is
// restarted; a server whose first connect failed is retried the same way), and per-upstream resilience:
// a bulkhead (concurrency limit) and a circuit breaker. Each part is its own module (this folder), handed
// the same scope (pool-scope.ts).
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { CircuitState } from "cockatiel";
import type { Logger } from "../logger";
import type { UpstreamDefinitions } from "../registry/definitions";
import { cancelReconnect, connectNow } from "./entry-connection";
import { entryFor, removeEntries } from "./pool-entries";
import { startPinger } from "./pool-health";
import { DEFAULT_POOL_OPTIONS, key, type CallToolOptions, type CallToolParams, type Entry, type PoolDeps, type PoolEvents, type PoolOptions, type PoolScope, type Role, type UpstreamSpec } from "./pool-scope";
import { sameLaunch } from "./same-launch";
import { compiledOncePerSchema } from "./schema-validators";
import { authModeOf, perCredentialSessions } from "./upstream-bearer";
import { callTool, guard, request } from "./upstream-calls";
import type { ConnectedUpstream, UpstreamLaunch } from "./upstream-client";
import type { CallIdentity } from "../upstream-auth/upstream-credentials";
import { UpstreamUnavailableError } from "./upstream-errors";

// The pool's names, where the rest of the gateway has always imported them.
export { DEFAULT_POOL_OPTIONS, type MintedForTask, type PoolDeps, type PoolEvents, type PoolOptions, type Role, type UpstreamSpec, type UpstreamStatus } from "./pool-scope";

export function createUpstreamPool(logger: Logger, events: PoolEvents = {}, options: Partial<PoolOptions> = {}, deps: PoolDeps = {}) {
  const opts = { ...DEFAULT_POOL_OPTIONS, ...options };
  const entries = new Map<string, Entry>();
  const scope: PoolScope = { opts, events, deps, logger, log: logger.child({ component: "upstream-pool" }), entries, validators: compiledOncePerSchema() };
  let closed = false;

  const remove = (serverId: string, role?: Role) => removeEntries(scope, serverId, role);
  const pinger = startPinger(scope);

  return {
    options: opts,
    /** Connects (or reuses the connection) and lists the upstream's definitions. */
    async start(spec: UpstreamSpec): Promise<UpstreamDefinitions> {
      // A start that reaches a closed pool (gateway shutting down during start-up) spawns nothing.
      if (closed) throw new UpstreamUnavailableError("the gateway is shutting down");
      const existing = entries.get(key(spec.serverId, spec.role));
      if (existing && !sameLaunch(existing.spec.launch, spec.launch)) await remove(spec.serverId, spec.role);
      // The same launch with a changed handshake bound: the next connect uses the new one.
      else if (existing) existing.spec = { ...existing.spec, connectTimeoutMs: spec.connectTimeoutMs };
      return connectNow(scope, entryFor(scope, spec));
    },
    /** A tools/call with the upstream's resilience policies; retries only when `retryable`. */
    callTool: (serverId: string, role: Role, params: CallToolParams, o: CallToolOptions): Promise<CallToolResult> => callTool(scope, serverId, role, params, o),
    /** Any other request (resources, prompts, completion), through the same connection and breaker. */
    request: <T>(serverId: string, role: Role, fn: (conn: ConnectedUpstream) => Promise<T>, signal?: AbortSignal, identity?: CallIdentity): Promise<T> => request(scope, serverId, role, fn, signal, identity),
    /**
     * Runs `fn` (a request over a connection of the caller's own, e.g. a transparent session's) under this
     * upstream's bulkhead and circuit breaker, with retries only when `retryable`.
     */
    guard: <T>(serverId: string, role: Role, fn: (signal: AbortSignal) => Promise<T>, o: { signal: AbortSignal; retryable: boolean }): Promise<T> => guard(scope, serverId, role, fn, o),
    /** A server's new handshake bound, for the next connect of what this process holds of it. */
    setConnectTimeout(serverId: string, connectTimeoutMs: number) {
      for (const r of ["active", "canary"] as const) {
        const e = entries.get(key(serverId, r));
        if (e) e.spec = { ...e.spec, connectTimeoutMs };
      }
    },
    /** The launch this process runs (or keeps reconnecting) for a server's role, if any. */
    launchOf(serverId: string, role: Role): UpstreamLaunch | undefined {
      return entries.get(key(serverId, role))?.spec.launch;
    },
    /**
     * Whether every caller of this server's role is served by one connection (auth none, shared, client
     * credentials), so one answer to a request such as tools/list holds for all of them; false for servers that act
     * as their caller (per_user, token_exchange: a session per credential) and for servers this process does not hold.
     */
    oneConnectionForAll(serverId: string, role: Role = "active"): boolean {
      const e = entries.get(key(serverId, role));
      return !!e && !perCredentialSessions(authModeOf(scope, e));
    },
    /** Whether a server's role is connected with its circuit closed: `status` without copying its logs, for the call path. */
    answering(serverId: string, role: Role = "active"): boolean {
      const e = entries.get(key(serverId, role));
      return !!e && (e.status === "HEALTHY" || e.status === "DEGRADED") && e.breaker.state === CircuitState.Closed;
    },
    /** The (server, role) pairs this process holds a connection or reconnect loop for. */
    held(): { serverId: string; role: Role }[] {
      return [...entries.values()].map((e) => ({ serverId: e.spec.serverId, role: e.spec.role }));
    },
    status(serverId: string, role: Role = "active") {
      const e = entries.get(key(serverId, role));
      return e
        ? {
            status: e.status,
            lastError: e.lastError,
            circuit: e.breaker.state,
            restarts: e.restarts,
            pid: e.conn?.pid,
            stderr: e.stderr.snapshot(),
            usage: e.conn ? e.usage : undefined,
            limitHits: e.limitHits,
            lastLimit: e.lastLimit,
            /** The MCP generation the connection speaks (2026-07-28 when its server/discover said so), while connected. */
            generation: e.conn?.generation,
            /** Upstream sessions open for callers' own credentials (per_user, token_exchange). */
            credentialSessions: e.sessions?.size ?? 0,
          }
        : undefined;
    },
    /**
     * Starts over with the backoff reset. A live connection is ended (a stdio process is killed) and comes
     * back through the reconnect loop: undefined. A server that is not connected (its first connect failed,
     * or it is waiting to reconnect) is connected now and its definitions returned; a failure throws and
     * leaves it retrying. Throws UpstreamUnavailableError when this pool holds nothing for it.
     */
    async restart(serverId: string, role: Role = "active"): Promise<UpstreamDefinitions | undefined> {
      const e = entries.get(key(serverId, role));
      if (!e) throw new UpstreamUnavailableError("the server is not held by this process");
      e.reconnectAttempt = 0;
      if (e.conn) {
        await e.conn.close();
        return undefined;
      }
      cancelReconnect(e);
      return connectNow(scope, e);
    },
    remove,
    /** Closed: the gateway is stopping; nothing starts any more. */
    get closed() {
      return closed;
    },
    async close() {
      closed = true;
      clearInterval(pinger);
      await Promise.all([...entries.values()].map((e) => remove(e.spec.serverId, e.spec.role)));
    },
  };
}

export type UpstreamPool = ReturnType<typeof createUpstreamPool>;
