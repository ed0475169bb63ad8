// Upstream faults become tool errors the model can act on, with a stable code.
import { BrokenCircuitError, BulkheadRejectedError, IsolatedCircuitError } from "cockatiel";
import { ErrorCode, McpError } from "@modelcontextprotocol/sdk/types.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { toolError } from "../pipeline/tool-error";

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

export function upstreamFailureResult(err: unknown, serverSlug: string, timeoutMs: number, halfOpenAfterMs: number): { result: CallToolResult; code: string } {
  if (err instanceof BrokenCircuitError || err instanceof IsolatedCircuitError) {
    const after = Math.ceil(halfOpenAfterMs / 1000);
    return {
      code: "upstream_unavailable",
      result: toolError("upstream_unavailable", `The server ${serverSlug} is failing repeatedly; its circuit is open. Try again in about ${after} s.`, { retryAfterSeconds: after }),
    };
  }
  if (err instanceof BulkheadRejectedError) {
    return {
      code: "rate_limited",
      result: toolError("rate_limited", `The server ${serverSlug} is at its concurrency limit. Try again in a few seconds.`, { retryAfterSeconds: 2 }),
    };
  }
  if (err instanceof McpError && err.code === (ErrorCode.RequestTimeout as number)) {
    return { code: "upstream_timeout", result: toolError("upstream_timeout", `The server ${serverSlug} did not answer within ${timeoutMs} ms; the call was cancelled.`) };
  }
  if (err instanceof UpstreamUnavailableError || (err instanceof McpError && err.code === (ErrorCode.ConnectionClosed as number))) {
    return { code: "upstream_unavailable", result: toolError("upstream_unavailable", `The server ${serverSlug} is not reachable right now (${err.message}).`, { retryAfterSeconds: 5 }) };
  }
  const message = err instanceof Error ? err.message : String(err);
  return { code: "upstream_error", result: toolError("upstream_error", `The server ${serverSlug} failed: ${message}`) };
}
