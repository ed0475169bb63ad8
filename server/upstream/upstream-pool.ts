// Live connections to upstream servers, one per (server, role): "active" serves everyone, "canary" the
// sessions in the canary share. Health pings, reconnect with backoff (a crashed stdio process is
// restarted; a server whose first connect failed is retried the same way), and per-upstream resilience:
// a bulkhead (concurrency limit) and a circuit breaker.
import {
  bulkhead,
  CircuitState,
  circuitBreaker,
  ConsecutiveBreaker,
  ExponentialBackoff,
  handleWhen,
  retry,
  wrap,
  type BulkheadPolicy,
  type CircuitBreakerPolicy,
} from "cockatiel";
import { CallToolResultSchema, type CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import type { Logger } from "../logger";
import { canonicalJson } from "../registry/content-hash";
import type { UpstreamDefinitions } from "../registry/definitions";
import { sandboxHint } from "../sandbox/sandbox-hint";
import type { LimitHit, Usage } from "../sandbox/supervisor";
import {
  connectUpstream,
  discoverDefinitions,
  isProcessLaunch,
  type ConnectPhase,
  type ConnectedUpstream,
  type PackageInstallInfo,
  type ProcessLauncher,
  type StdioLaunch,
  type UpstreamLaunch,
} from "./upstream-client";
import { isTransient, unlessCanceled, UpstreamCallCanceledError, UpstreamUnavailableError } from "./upstream-errors";
import { withErrorLines } from "./pick-error-lines";
import { StderrLog } from "./stderr-log";

export type Role = "active" | "canary";
export type UpstreamStatus = "CONNECTING" | "HEALTHY" | "DEGRADED" | "DOWN";

export type PoolOptions = {
  pingIntervalMs: number;
  /** Ping latency above this marks a server DEGRADED. */
  degradedLatencyMs: number;
  connectTimeoutMs: number;
  breakerFailures: number;
  halfOpenAfterMs: number;
  /** The first wait before reconnecting; it doubles per failed attempt up to maxReconnectDelayMs (±20 %). */
  reconnectDelayMs: number;
  maxReconnectDelayMs: number;
};

export const DEFAULT_POOL_OPTIONS: PoolOptions = {
  pingIntervalMs: 15_000,
  degradedLatencyMs: 2_000,
  connectTimeoutMs: 15_000,
  breakerFailures: 5,
  halfOpenAfterMs: 10_000,
  reconnectDelayMs: 500,
  maxReconnectDelayMs: 30_000,
};

export type UpstreamSpec = {
  serverId: string;
  slug: string;
  role: Role;
  launch: UpstreamLaunch;
  maxConcurrency: number;
  /** The server's own handshake bound; absent = the pool's connectTimeoutMs. */
  connectTimeoutMs?: number | undefined;
};

export type PoolEvents = {
  onStatus?: (spec: UpstreamSpec, status: UpstreamStatus, info: { lastError?: string; latencyMs?: number }) => void;
  /** The upstream's definitions changed (list_changed, or a reconnect found new ones). */
  onDefinitions?: (spec: UpstreamSpec, defs: UpstreamDefinitions) => void;
  /** A sandboxed process was ended for reaching a limit (it restarts with backoff). */
  onLimit?: (spec: UpstreamSpec, hit: LimitHit) => void;
  /** A process's use crossed (or fell back under) its breaker threshold. */
  onThreshold?: (spec: UpstreamSpec, over: boolean, usage: Usage) => void;
  /** The step a connect has reached; null once it is connected with its tools listed, or has failed. */
  onPhase?: (spec: UpstreamSpec, phase: ConnectPhase | null) => void;
  /** A package server's install was found or made for a start. */
  onPackage?: (spec: UpstreamSpec, info: PackageInstallInfo) => void;
};

/** Credentials minted for one call of a per-task server, revoked when it ends. */
export type MintedForTask = { env: Record<string, string>; revoke(): Promise<void> };

export type PoolDeps = {
  launcher?: ProcessLauncher | undefined;
  /** Mints a per-task server's credentials (server/sandbox/launcher.ts). */
  mintForTask?: ((launch: StdioLaunch, taskKey: string) => Promise<MintedForTask>) | undefined;
};

type Entry = {
  spec: UpstreamSpec;
  conn?: ConnectedUpstream | undefined;
  connecting?: Promise<ConnectedUpstream> | undefined;
  status: UpstreamStatus;
  lastError?: string | undefined;
  stderr: StderrLog;
  breaker: CircuitBreakerPolicy;
  bulkhead: BulkheadPolicy;
  reconnectAttempt: number;
  reconnectTimer?: NodeJS.Timeout | undefined;
  removed: boolean;
  restarts: number;
  connectedOnce?: boolean;
  usage?: Usage | undefined;
  limitHits: number;
  lastLimit?: LimitHit | undefined;
  /** The step a connect has reached, as last reported (null: none under way). */
  phase?: ConnectPhase | null | undefined;
  /** Holds the circuit open while the process is over its breaker threshold. */
  thresholdHold?: { dispose(): void } | undefined;
  /** Ends the connect under way when the entry is removed (or the pool closed), instead of waiting it out. */
  abort?: AbortController | undefined;
};

const key = (serverId: string, role: Role) => `${serverId}:${role}`;

export function createUpstreamPool(logger: Logger, events: PoolEvents = {}, options: Partial<PoolOptions> = {}, deps: PoolDeps = {}) {
  const opts = { ...DEFAULT_POOL_OPTIONS, ...options };
  const entries = new Map<string, Entry>();
  const log = logger.child({ component: "upstream-pool" });
  let closed = false;

  function setStatus(e: Entry, status: UpstreamStatus, info: { lastError?: string; latencyMs?: number } = {}) {
    // A removed entry's last attempt may still settle; the server row belongs to its successor by then.
    if (e.removed) return;
    const changed = e.status !== status || (info.lastError !== undefined && info.lastError !== e.lastError);
    e.status = status;
    if (info.lastError !== undefined) e.lastError = info.lastError;
    if (changed || info.latencyMs !== undefined) events.onStatus?.(e.spec, status, info);
  }

  /** Why a process failed, from its stderr: the error lines, and what the sandbox has to do with it. */
  function failure(e: Entry, message: string): string {
    const lines = e.stderr.recent();
    const iso = isProcessLaunch(e.spec.launch) ? e.spec.launch.isolation : undefined;
    const hint = sandboxHint(lines, { isolation: iso });
    return hint ? `${withErrorLines(message, lines)} — ${hint}` : withErrorLines(message, lines);
  }

  function scheduleReconnect(e: Entry) {
    if (e.removed || e.reconnectTimer) return;
    const delay = Math.min(opts.maxReconnectDelayMs, opts.reconnectDelayMs * 2 ** e.reconnectAttempt) * (0.8 + Math.random() * 0.4);
    e.reconnectAttempt++;
    logger.debug({ server: e.spec.slug, role: e.spec.role, attempt: e.reconnectAttempt, delayMs: Math.round(delay) }, "upstream: reconnect scheduled");
    e.reconnectTimer = setTimeout(() => {
      e.reconnectTimer = undefined;
      void connect(e)
        .then(async (conn) => {
          events.onDefinitions?.(e.spec, await listDefinitions(e, conn));
        })
        .catch(() => scheduleReconnect(e));
    }, delay);
    e.reconnectTimer.unref();
  }

  function cancelReconnect(e: Entry) {
    clearTimeout(e.reconnectTimer);
    e.reconnectTimer = undefined;
  }

  /**
   * Connects for a caller that records the definitions itself (start, restart): a failure leaves the
   * reconnect loop running, as after a dropped connection; a success ends a pending wait.
   */
  async function connectNow(e: Entry): Promise<UpstreamDefinitions> {
    let conn: ConnectedUpstream;
    try {
      conn = await connect(e);
    } catch (err) {
      scheduleReconnect(e);
      throw err;
    }
    cancelReconnect(e);
    return listDefinitions(e, conn);
  }

  const connectTimeout = (e: Entry) => e.spec.connectTimeoutMs ?? opts.connectTimeoutMs;

  function reportPhase(e: Entry, phase: ConnectPhase | null) {
    if (e.removed || e.phase === phase) return;
    e.phase = phase;
    events.onPhase?.(e.spec, phase);
  }

  /** A connect for a request (no listing follows): its phase ends with it, unless a listing has begun. */
  async function connectForUse(e: Entry): Promise<ConnectedUpstream> {
    const conn = await connect(e);
    if (e.phase !== "listing_tools") reportPhase(e, null);
    return conn;
  }

  /** The first listing after a connect: its phase is reported, and ends (null) however it ends. */
  async function listDefinitions(e: Entry, conn: ConnectedUpstream): Promise<UpstreamDefinitions> {
    reportPhase(e, "listing_tools");
    try {
      return await discoverDefinitions(conn.client, connectTimeout(e));
    } finally {
      reportPhase(e, null);
    }
  }

  async function connect(e: Entry): Promise<ConnectedUpstream> {
    if (e.conn) return e.conn;
    if (e.connecting) return e.connecting;
    setStatus(e, "CONNECTING");
    e.connecting = (async () => {
      // Declared before the connect: the process can exit (and onClose fire) before connectUpstream returns.
      let conn: ConnectedUpstream | undefined;
      if (isProcessLaunch(e.spec.launch)) e.stderr.begin();
      try {
        conn = await connectUpstream(
          e.spec.launch,
          {
            onClose: (reason) => {
              if (!conn || e.conn !== conn) return;
              e.conn = undefined;
              if (e.removed) return;
              e.stderr.end(reason);
              const lastError = failure(e, reason);
              log.warn({ server: e.spec.slug, role: e.spec.role, reason: lastError }, "upstream disconnected");
              setStatus(e, "DOWN", { lastError });
              scheduleReconnect(e);
            },
            onListChanged: () => {
              if (!conn) return; // announced during initialize: the discovery after connect sees it
              void discoverDefinitions(conn.client, connectTimeout(e))
                .then((defs) => events.onDefinitions?.(e.spec, defs))
                .catch((err: unknown) => log.warn({ err, server: e.spec.slug }, "refresh after list_changed failed"));
            },
            onStderr: (line) => e.stderr.push(line),
            onLimit: (hit) => {
              e.limitHits++;
              e.lastLimit = hit;
              if (!e.removed) events.onLimit?.(e.spec, hit);
            },
            onSample: (u) => onSample(e, u),
            onPhase: (phase) => reportPhase(e, phase),
            onPackage: (info) => !e.removed && events.onPackage?.(e.spec, info),
          },
          { timeoutMs: connectTimeout(e), launcher: deps.launcher, key: { serverId: e.spec.serverId, slug: e.spec.slug, role: e.spec.role }, signal: (e.abort = new AbortController()).signal },
        );
        if (e.removed) {
          // Removed while connecting: nobody holds this entry any more, so nothing would ever close it.
          await conn.close().catch(() => undefined);
          throw new Error("the server was removed while connecting");
        }
        e.conn = conn;
        // Every connection after the first is a restart (reconnect loop, a call that reconnected, or restart()).
        if (e.connectedOnce) e.restarts++;
        e.connectedOnce = true;
        e.reconnectAttempt = 0;
        setStatus(e, "HEALTHY", { lastError: "" });
        return conn;
      } catch (err) {
        const message = err instanceof Error ? err.message : String(err);
        e.stderr.end(message);
        reportPhase(e, null);
        // A removed entry (server removed or replaced, pool closed) has no status left to report: a DOWN here
        // would overwrite its successor's, or be written while the gateway stops.
        if (!e.removed) setStatus(e, "DOWN", { lastError: failure(e, message) });
        throw new UpstreamUnavailableError(message, { cause: err });
      } finally {
        e.connecting = undefined;
        e.abort = undefined;
      }
    })();
    return e.connecting;
  }

  /** Opens the circuit while the process uses more memory than its threshold, closes it when it is back under. */
  function onSample(e: Entry, u: Usage) {
    e.usage = u;
    const iso = isProcessLaunch(e.spec.launch) ? e.spec.launch.isolation : undefined;
    if (!iso || iso.profile === "none") return;
    const over = u.memoryMb > (iso.memoryMb * iso.breakerMemoryPercent) / 100;
    if (over && !e.thresholdHold) {
      e.thresholdHold = e.breaker.isolate();
      log.warn({ server: e.spec.slug, memoryMb: Math.round(u.memoryMb), limitMb: iso.memoryMb }, "memory above the breaker threshold: circuit opened");
      events.onThreshold?.(e.spec, true, u);
    } else if (!over && e.thresholdHold) {
      releaseHold(e);
      events.onThreshold?.(e.spec, false, u);
    }
  }

  function releaseHold(e: Entry) {
    e.thresholdHold?.dispose();
    e.thresholdHold = undefined;
  }

  /** One process for one call, launched with credentials minted for it; both end with the call. */
  async function callInOwnProcess(
    e: Entry,
    launch: StdioLaunch,
    params: { name: string; arguments: Record<string, unknown>; _meta?: Record<string, unknown> | undefined },
    o: { signal: AbortSignal; timeoutMs: number; onProgress?: ((p: { progress: number; total?: number | undefined; message?: string | undefined }) => void) | undefined },
  ): Promise<CallToolResult> {
    if (!deps.mintForTask) throw new UpstreamUnavailableError("per-task credentials are not available in this gateway process");
    const taskKey = typeof params._meta?.taskId === "string" ? params._meta.taskId : `call-${Math.random().toString(36).slice(2, 10)}`;
    const minted = await deps.mintForTask(launch, taskKey).catch((err: unknown) => {
      throw new UpstreamUnavailableError(`could not mint the task's credentials: ${(err as Error).message}`, { cause: err });
    });
    let conn: ConnectedUpstream | undefined;
    try {
      conn = await connectUpstream(
        { ...launch, env: { ...launch.env, ...minted.env }, taskCredentials: null },
        { onStderr: (line) => e.stderr.push(line) },
        { timeoutMs: connectTimeout(e), launcher: deps.launcher, key: { serverId: e.spec.serverId, slug: e.spec.slug, role: `task-${taskKey.slice(-8)}` } },
      ).catch((err: unknown) => {
        throw new UpstreamUnavailableError((err as Error).message, { cause: err });
      });
      const c = conn;
      return await c.client.request({ method: "tools/call", params }, CallToolResultSchema, {
        signal: o.signal,
        timeout: o.timeoutMs,
        resetTimeoutOnProgress: true,
        maxTotalTimeout: o.timeoutMs * 10,
        ...(o.onProgress ? { onprogress: o.onProgress } : {}),
      });
    } finally {
      await conn?.close().catch(() => undefined);
      await minted.revoke().catch((err: unknown) => log.error({ err, server: e.spec.slug, taskKey }, "revoking a task's credentials failed (they expire on their own)"));
    }
  }

  function entryFor(spec: UpstreamSpec): Entry {
    const k = key(spec.serverId, spec.role);
    let e = entries.get(k);
    if (!e) {
      // A cancellation is not the upstream's failure, except of the half-open probe: it proved nothing, and
      // cockatiel would close the circuit on an error it does not count; it stays open until a probe answers.
      const counts = (err: unknown) => isTransient(err) || (err instanceof UpstreamCallCanceledError && breaker.state === CircuitState.HalfOpen);
      const breaker: CircuitBreakerPolicy = circuitBreaker(handleWhen(counts), { halfOpenAfter: opts.halfOpenAfterMs, breaker: new ConsecutiveBreaker(opts.breakerFailures) });
      e = {
        spec,
        status: "CONNECTING",
        stderr: new StderrLog(),
        breaker,
        bulkhead: bulkhead(spec.maxConcurrency, spec.maxConcurrency * 8),
        reconnectAttempt: 0,
        removed: false,
        restarts: 0,
        limitHits: 0,
      };
      entries.set(k, e);
    }
    return e;
  }

  async function remove(serverId: string, role?: Role) {
    for (const r of role ? [role] : (["active", "canary"] as const)) {
      const e = entries.get(key(serverId, r));
      if (!e) continue;
      e.removed = true;
      e.abort?.abort(new Error("the server was removed while connecting"));
      cancelReconnect(e);
      releaseHold(e);
      entries.delete(key(serverId, r));
      await e.conn?.close().catch(() => undefined);
    }
  }

  const pinger = setInterval(() => {
    for (const e of entries.values()) {
      if (!e.conn) continue;
      const started = performance.now();
      e.conn.client
        .ping({ timeout: Math.max(1000, opts.degradedLatencyMs * 2) })
        .then(() => {
          const latencyMs = Math.round(performance.now() - started);
          setStatus(e, latencyMs > opts.degradedLatencyMs || e.breaker.state !== CircuitState.Closed ? "DEGRADED" : "HEALTHY", { latencyMs });
        })
        .catch((err: unknown) => {
          setStatus(e, "DOWN", { lastError: `ping failed: ${(err as Error).message}` });
          const conn = e.conn;
          e.conn = undefined;
          void conn?.close().catch(() => undefined);
          scheduleReconnect(e);
        });
    }
  }, opts.pingIntervalMs);
  pinger.unref();

  return {
    options: opts,
    /** Connects (or reuses the connection) and lists the upstream's definitions. */
    async start(spec: UpstreamSpec): Promise<UpstreamDefinitions> {
      // A start that reaches a closed pool (gateway shutting down during start-up) spawns nothing.
      if (closed) throw new UpstreamUnavailableError("the gateway is shutting down");
      const existing = entries.get(key(spec.serverId, spec.role));
      // Canonical JSON: a launch read back from jsonb has its keys reordered, and is still the same launch.
      if (existing && canonicalJson(existing.spec.launch) !== canonicalJson(spec.launch)) await remove(spec.serverId, spec.role);
      // The same launch with a changed handshake bound: the next connect uses the new one.
      else if (existing) existing.spec = { ...existing.spec, connectTimeoutMs: spec.connectTimeoutMs };
      return connectNow(entryFor(spec));
    },
    /** A tools/call with the upstream's resilience policies; retries only when `retryable`. */
    async callTool(
      serverId: string,
      role: Role,
      params: { name: string; arguments: Record<string, unknown>; _meta?: Record<string, unknown> | undefined },
      o: { signal: AbortSignal; timeoutMs: number; retryable: boolean; onProgress?: ((p: { progress: number; total?: number | undefined; message?: string | undefined }) => void) | undefined },
    ): Promise<CallToolResult> {
      const e = entries.get(key(serverId, role));
      if (!e) throw new UpstreamUnavailableError("the server is not connected");
      const launch = e.spec.launch;
      const attempt = async () => {
        if (launch.transport === "STDIO" && launch.taskCredentials) return callInOwnProcess(e, launch, params, o);
        const conn = await connectForUse(e);
        return conn.client
          .request({ method: "tools/call", params }, CallToolResultSchema, {
            signal: o.signal,
            timeout: o.timeoutMs,
            resetTimeoutOnProgress: true,
            maxTotalTimeout: o.timeoutMs * 10,
            ...(o.onProgress ? { onprogress: o.onProgress } : {}),
          })
          .catch(async (err: unknown) => {
            // The process died under the call: if a limit ended it, the caller hears which.
            const hit = await conn.limitHit?.();
            if (hit) throw new UpstreamUnavailableError(`its process was ended: ${hit.message}`, { cause: err });
            throw err;
          });
      };
      const retries = o.retryable
        ? retry(handleWhen(isTransient), { maxAttempts: 2, backoff: new ExponentialBackoff({ initialDelay: 100, maxDelay: 1000 }) })
        : undefined;
      const policy = retries ? wrap(e.bulkhead, retries, e.breaker) : wrap(e.bulkhead, e.breaker);
      return policy.execute(() => unlessCanceled(o.signal, attempt), o.signal);
    },
    /** Any other request (resources, prompts, completion), through the same connection and breaker. */
    async request<T>(serverId: string, role: Role, fn: (conn: ConnectedUpstream) => Promise<T>, signal?: AbortSignal): Promise<T> {
      const e = entries.get(key(serverId, role));
      if (!e) throw new UpstreamUnavailableError("the server is not connected");
      return wrap(e.bulkhead, e.breaker).execute(() => unlessCanceled(signal, async () => fn(await connectForUse(e))), signal);
    },
    /**
     * Runs `fn` (a request over a connection of the caller's own, e.g. a transparent session's) under this
     * upstream's bulkhead and circuit breaker, with retries only when `retryable`.
     */
    async guard<T>(serverId: string, role: Role, fn: (signal: AbortSignal) => Promise<T>, o: { signal: AbortSignal; retryable: boolean }): Promise<T> {
      const e = entries.get(key(serverId, role));
      if (!e) throw new UpstreamUnavailableError("the server is not connected");
      const retries = o.retryable
        ? retry(handleWhen(isTransient), { maxAttempts: 2, backoff: new ExponentialBackoff({ initialDelay: 100, maxDelay: 1000 }) })
        : undefined;
      const policy = retries ? wrap(e.bulkhead, retries, e.breaker) : wrap(e.bulkhead, e.breaker);
      return policy.execute(({ signal }) => unlessCanceled(o.signal, () => fn(signal)), o.signal);
    },
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
      return connectNow(e);
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
