// Upstream faults become tool errors the model can act on, with a stable code.
import { BrokenCircuitError, BulkheadRejectedError, IsolatedCircuitError } from "cockatiel";
import { ErrorCode, McpError } from "@modelcontextprotocol/sdk/types.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { UpstreamUnavailableError } from "../upstream/upstream-errors";
import { toolError, type ToolErrorCode } from "./tool-error";

export function upstreamFailureResult(err: unknown, serverSlug: string, timeoutMs: number, halfOpenAfterMs: number): { result: CallToolResult; code: ToolErrorCode } {
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
