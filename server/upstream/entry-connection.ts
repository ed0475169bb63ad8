// An entry's connection lifecycle: connect (one at a time), and on a drop or a failed connect, reconnect with
// backoff until the entry is removed. A crashed stdio process is restarted the same way.
import type { UpstreamDefinitions } from "../registry/definitions";
import { onSample } from "./entry-resilience";
import { failure, reportPhase, setStatus } from "./entry-status";
import type { Entry, PoolScope } from "./pool-scope";
import { reconnectDelay } from "./reconnect-delay";
import { connectUpstream, discoverDefinitions, isProcessLaunch, type ConnectedUpstream } from "./upstream-client";
import { UpstreamUnavailableError } from "./upstream-errors";
import { discoveryBearer } from "./upstream-bearer";
import { UpstreamAuthRequiredError } from "../upstream-auth/upstream-auth-required-error";

export const connectTimeout = ({ opts }: PoolScope, e: Entry) => e.spec.connectTimeoutMs ?? opts.connectTimeoutMs;

export function scheduleReconnect(scope: PoolScope, e: Entry) {
  const { opts, logger, events } = scope;
  if (e.removed || e.reconnectTimer) return;
  const delay = reconnectDelay(opts, e.reconnectAttempt);
  e.reconnectAttempt++;
  logger.debug({ server: e.spec.slug, role: e.spec.role, attempt: e.reconnectAttempt, delayMs: Math.round(delay) }, "upstream: reconnect scheduled");
  e.reconnectTimer = setTimeout(() => {
    e.reconnectTimer = undefined;
    void connect(scope, e)
      .then(async (conn) => {
        events.onDefinitions?.(e.spec, await listDefinitions(scope, e, conn));
      })
      .catch(() => scheduleReconnect(scope, e));
  }, delay);
  e.reconnectTimer.unref();
}

export function cancelReconnect(e: Entry) {
  clearTimeout(e.reconnectTimer);
  e.reconnectTimer = undefined;
}

/**
 * Connects for a caller that records the definitions itself (start, restart): a failure leaves the
 * reconnect loop running, as after a dropped connection; a success ends a pending wait.
 */
export async function connectNow(scope: PoolScope, e: Entry): Promise<UpstreamDefinitions> {
  let conn: ConnectedUpstream;
  try {
    conn = await connect(scope, e);
  } catch (err) {
    scheduleReconnect(scope, e);
    throw err;
  }
  cancelReconnect(e);
  return listDefinitions(scope, e, conn);
}

/** A connect for a request (no listing follows): its phase ends with it, unless a listing has begun. */
export async function connectForUse(scope: PoolScope, e: Entry): Promise<ConnectedUpstream> {
  const conn = await connect(scope, e);
  if (e.phase !== "listing_tools") reportPhase(scope, e, null);
  return conn;
}

/** The first listing after a connect: its phase is reported, and ends (null) however it ends. */
export async function listDefinitions(scope: PoolScope, e: Entry, conn: ConnectedUpstream): Promise<UpstreamDefinitions> {
  reportPhase(scope, e, "listing_tools");
  try {
    return await discoverDefinitions(conn.client, connectTimeout(scope, e));
  } finally {
    reportPhase(scope, e, null);
  }
}

export async function connect(scope: PoolScope, e: Entry): Promise<ConnectedUpstream> {
  const { log, events, deps } = scope;
  if (e.conn) return e.conn;
  if (e.connecting) return e.connecting;
  setStatus(scope, e, "CONNECTING");
  e.connecting = (async () => {
    // Declared before the connect: the process can exit (and onClose fire) before connectUpstream returns.
    let conn: ConnectedUpstream | undefined;
    if (isProcessLaunch(e.spec.launch)) e.stderr.begin();
    try {
      const bearer = discoveryBearer(scope, e);
      // Asked once before connecting: a server with no credential yet fails with that reason, not a 401.
      await bearer?.token();
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
            setStatus(scope, e, "DOWN", { lastError });
            scheduleReconnect(scope, e);
          },
          onListChanged: () => {
            if (!conn) return; // announced during initialize: the discovery after connect sees it
            void discoverDefinitions(conn.client, connectTimeout(scope, e))
              .then((defs) => events.onDefinitions?.(e.spec, defs))
              .catch((err: unknown) => log.warn({ err, server: e.spec.slug }, "refresh after list_changed failed"));
          },
          onStderr: (line) => e.stderr.push(line),
          onLimit: (hit) => {
            e.limitHits++;
            e.lastLimit = hit;
            if (!e.removed) events.onLimit?.(e.spec, hit);
          },
          onSample: (u) => onSample(scope, e, u),
          onPhase: (phase) => reportPhase(scope, e, phase),
          onPackage: (info) => !e.removed && events.onPackage?.(e.spec, info),
        },
        { timeoutMs: connectTimeout(scope, e), launcher: deps.launcher, key: { serverId: e.spec.serverId, slug: e.spec.slug, role: e.spec.role }, signal: (e.abort = new AbortController()).signal, bearer, validators: scope.validators },
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
      setStatus(scope, e, "HEALTHY", { lastError: "" });
      return conn;
    } catch (err) {
      // upstream_auth_required leads the server's lastError: it waits for a connection, not a fix.
      const message = err instanceof UpstreamAuthRequiredError ? `upstream_auth_required: ${err.message}` : err instanceof Error ? err.message : String(err);
      e.stderr.end(message);
      reportPhase(scope, e, null);
      // A removed entry (server removed or replaced, pool closed) has no status left to report: a DOWN here
      // would overwrite its successor's, or be written while the gateway stops.
      if (!e.removed) setStatus(scope, e, "DOWN", { lastError: failure(e, message) });
      throw new UpstreamUnavailableError(message, { cause: err });
    } finally {
      e.connecting = undefined;
      e.abort = undefined;
    }
  })();
  return e.connecting;
}
