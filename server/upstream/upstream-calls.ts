// Requests through an entry: a tools/call, any other request over the pooled connection, or a request over
// a connection of the caller's own, each under the upstream's bulkhead and circuit breaker. A caller's
// cancellation is told apart from the upstream's failure (unlessCanceled), so it is not counted.
import { CallToolResultSchema, type CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { connectForUse } from "./entry-connection";
import { resiliencePolicy } from "./entry-resilience";
import { key, type CallToolOptions, type CallToolParams, type Entry, type PoolScope, type Role } from "./pool-scope";
import { callInOwnProcess } from "./task-process-call";
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
  const attempt = async () => {
    if (launch.transport === "STDIO" && launch.taskCredentials) return callInOwnProcess(scope, e, launch, params, o);
    const conn = await connectForUse(scope, e);
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
  return resiliencePolicy(e, o.retryable).execute(() => unlessCanceled(o.signal, attempt), o.signal);
}

/** Any other request (resources, prompts, completion), through the same connection and breaker. */
export async function request<T>(scope: PoolScope, serverId: string, role: Role, fn: (conn: ConnectedUpstream) => Promise<T>, signal?: AbortSignal): Promise<T> {
  const e = heldEntry(scope, serverId, role);
  return resiliencePolicy(e, false).execute(() => unlessCanceled(signal, async () => fn(await connectForUse(scope, e))), signal);
}

/**
 * Runs `fn` (a request over a connection of the caller's own, e.g. a transparent session's) under this
 * upstream's bulkhead and circuit breaker, with retries only when `retryable`.
 */
export async function guard<T>(scope: PoolScope, serverId: string, role: Role, fn: (signal: AbortSignal) => Promise<T>, o: { signal: AbortSignal; retryable: boolean }): Promise<T> {
  const e = heldEntry(scope, serverId, role);
  return resiliencePolicy(e, o.retryable).execute(({ signal }) => unlessCanceled(o.signal, () => fn(signal)), o.signal);
}
