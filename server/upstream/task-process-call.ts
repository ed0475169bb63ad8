// A per-task server's call: one process for one call, launched with credentials minted for it; both end
// with the call.
import { CallToolResultSchema, type CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { connectTimeout } from "./entry-connection";
import type { CallToolOptions, CallToolParams, Entry, PoolScope } from "./pool-scope";
import { connectUpstream, type ConnectedUpstream, type StdioLaunch } from "./upstream-client";
import { UpstreamUnavailableError } from "./upstream-errors";

/** One process for one call, launched with credentials minted for it; both end with the call. */
export async function callInOwnProcess(scope: PoolScope, e: Entry, launch: StdioLaunch, params: CallToolParams, o: Omit<CallToolOptions, "retryable">): Promise<CallToolResult> {
  const { deps, log } = scope;
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
      { timeoutMs: connectTimeout(scope, e), launcher: deps.launcher, key: { serverId: e.spec.serverId, slug: e.spec.slug, role: `task-${taskKey.slice(-8)}` }, validators: scope.validators },
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
