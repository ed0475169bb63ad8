// Upstream faults as the pool raises them; pipeline/upstream-failure-result.ts turns them into tool errors.
import { ErrorCode, McpError } from "@modelcontextprotocol/sdk/types.js";

export class UpstreamUnavailableError extends Error {
  override name = "UpstreamUnavailableError";
}

/**
 * A request its caller stopped (the agent's cancellation, cancel_task, shutdown): not the upstream's fault, so
 * not transient: it is neither retried nor counted by the circuit breaker.
 */
export class UpstreamCallCanceledError extends Error {
  override name = "UpstreamCallCanceledError";
}

/**
 * Runs `fn`; a failure once `signal` has aborted is the caller's cancellation. The SDK rejects any aborted
 * request with a RequestTimeout McpError, which alone would count against the upstream (five agent
 * cancellations in a row opened its circuit).
 */
export async function unlessCanceled<T>(signal: AbortSignal | undefined, fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (err) {
    if (signal?.aborted) throw new UpstreamCallCanceledError(`cancelled by its caller (${String(signal.reason)})`, { cause: err });
    throw err;
  }
}

/** True for faults where trying again may help (connection, timeout); never for the upstream's own answers. */
export function isTransient(err: unknown): boolean {
  if (err instanceof UpstreamUnavailableError) return true;
  if (err instanceof McpError) return err.code === (ErrorCode.ConnectionClosed as number) || err.code === (ErrorCode.RequestTimeout as number);
  return false;
}

/**
 * The upstream answered 401 to the bearer a request carried (expired or revoked at the upstream): the call path
 * asks the credentials for a new one (`rejected`) and tries once more. Not transient: the breaker ignores it.
 */
export class UpstreamUnauthorizedError extends Error {
  override name = "UpstreamUnauthorizedError";
  constructor(readonly challenge: string | null) {
    super(`the upstream refused the credential (401${challenge ? `: ${challenge}` : ""})`);
  }
}
