// Requests through an entry: a tools/call, any other request over the pooled connection, or a request over
// a connection of the caller's own, each under the upstream's bulkhead and circuit breaker. A caller's
// cancellation is told apart from the upstream's failure (unlessCanceled), so it is not counted.
import { CallToolResultSchema, type CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { connectForUse } from "./entry-connection";
import { resiliencePolicy } from "./entry-resilience";
import { key, type CallToolOptions, type CallToolParams, type Entry, type PoolScope, type Role } from "./pool-scope";
import { callInOwnProcess } from "./task-process-call";
import type { CallIdentity } from "../upstream-auth/upstream-credentials";
import { withCredentialSession } from "./credential-sessions";
import { authModeOf, perCredentialSessions, withCallCredential } from "./upstream-bearer";
import type { ConnectedUpstream } from "./upstream-client";
import { unlessCanceled, UpstreamUnavailableError } from "./upstream-errors";

function heldEntry({ entries }: PoolScope, serverId: string, role: Role): Entry {
  const e = entries.get(key(serverId, role));
  if (!e) throw new UpstreamUnavailableError("the server is not connected");
  return e;
}

/** A tools/call with the upstream's resilience policies; retries only when `retryable`. */
export async function callTool(scope: PoolScope, serverId: string, role: Role, params: CallToolParams, o: CallToolOptions): Promise<CallToolResult> {
  const e = heldEntry(scope, serverId, role);
  const launch = e.spec.launch;
  const send = (conn: ConnectedUpstream) =>
    conn.client
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
  const attempt = async () => {
    if (launch.transport === "STDIO" && launch.taskCredentials) return callInOwnProcess(scope, e, launch, params, o);
    return send(await connectForUse(scope, e));
  };
  return overConnection(scope, e, o, attempt, send, o.retryable);
}

/**
 * Runs a request under the entry's policies over the connection its auth mode calls for: the shared one (mode
 * none, and shared / client_credentials with the call's credential told and a 401 retried), or the session of the
 * call's own credential (per_user, token_exchange).
 */
function overConnection<T>(scope: PoolScope, e: Entry, o: Partial<Pick<CallToolOptions, "signal" | "identity" | "onCredential">>, shared: () => Promise<T>, own: (conn: ConnectedUpstream) => Promise<T>, retryable: boolean): Promise<T> {
  // An admin's change of the mode answers once every process has started reloading it: read it after that.
  const settling = scope.deps.authModesSettling?.();
  if (settling) return settling.then(() => overConnection(scope, e, o, shared, own, retryable));
  const policy = resiliencePolicy(e, retryable);
  const mode = authModeOf(scope, e);
  if (mode === "none") return policy.execute(() => unlessCanceled(o.signal, shared), o.signal);
  return withCallCredential(scope, e, o, (cred) =>
    policy.execute(() => unlessCanceled(o.signal, () => (perCredentialSessions(mode) ? withCredentialSession(scope, e, cred, own) : shared())), o.signal),
  );
}

/**
 * Any other request (resources, prompts, completion), through the same connection and breaker; for an upstream
 * that acts as its caller, over the session of `identity`'s own credential.
 */
export async function request<T>(scope: PoolScope, serverId: string, role: Role, fn: (conn: ConnectedUpstream) => Promise<T>, signal?: AbortSignal, identity?: CallIdentity): Promise<T> {
  const e = heldEntry(scope, serverId, role);
  return overConnection(scope, e, { signal, identity }, async () => fn(await connectForUse(scope, e)), fn, false);
}

/**
 * Runs `fn` (a request over a connection of the caller's own, e.g. a transparent session's) under this
 * upstream's bulkhead and circuit breaker, with retries only when `retryable`.
 */
export async function guard<T>(scope: PoolScope, serverId: string, role: Role, fn: (signal: AbortSignal) => Promise<T>, o: { signal: AbortSignal; retryable: boolean }): Promise<T> {
  const e = heldEntry(scope, serverId, role);
  return resiliencePolicy(e, o.retryable).execute(({ signal }) => unlessCanceled(o.signal, () => fn(signal)), o.signal);
}
