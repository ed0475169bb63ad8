// The last step: the call goes to the upstream through the pool's resilience policies.
import { McpError } from "@modelcontextprotocol/sdk/types.js";
import { MODERN_ERROR } from "../mcp/modern/modern-protocol";
import { UpstreamAuthRequiredError } from "../upstream-auth/upstream-auth-required-error";
import type { UpstreamPool } from "../upstream/upstream-pool";
import { callIdentity } from "./call-identity";
import { checkPinnedDefinition, type OnDefinitionDrift } from "./check-pinned-definition";
import type { SharedToolListing } from "./shared-tool-listing";
import { toolError } from "./tool-error";
import { upstreamFailureResult } from "./upstream-failure-result";
import type { CallToolHandler, ToolCall } from "./types";

/** Checked against the pinned definition first (check-pinned-definition.ts), here so a queued task is too. */
export function executeUpstream(pool: UpstreamPool, onDrift?: OnDefinitionDrift, shared?: SharedToolListing): CallToolHandler {
  return checkPinnedDefinition(pool, onDrift, shared)(async (call: ToolCall, ctx, notes) => {
    try {
      const via = call.via;
      if (via) {
        try {
          return await pool.guard(call.tool.serverId, call.tool.role, (s) => via(s, call.arguments), { signal: call.signal, retryable: call.tool.retryable });
        } finally {
          const ref = via.credential?.();
          if (ref) notes.credential = ref;
        }
      }
      return await pool.callTool(
        call.tool.serverId,
        call.tool.role,
        { name: call.tool.name, arguments: call.arguments, ...(call.meta ? { _meta: call.meta } : {}) },
        {
          signal: call.signal,
          timeoutMs: call.tool.timeoutMs,
          retryable: call.tool.retryable,
          onProgress: call.onProgress,
          identity: callIdentity(call.tool.serverId, ctx, call.sessionKey),
          onCredential: (ref) => void (notes.credential = ref),
        },
      );
    } catch (err) {
      // Stopped on purpose (the agent's cancellation, cancel_task, shutting down): the SDK reports any abort
      // as a request timeout, which would blame the upstream for what the gateway did.
      if (call.signal.aborted) {
        const why = call.signal.reason instanceof Error ? call.signal.reason.message : String(call.signal.reason);
        notes.errorCode = "canceled";
        notes.reason = why;
        return toolError("canceled", `The call to ${call.tool.serverSlug} was cancelled before it answered (${why}).`);
      }
      if (err instanceof UpstreamAuthRequiredError) {
        notes.errorCode = err.code;
        notes.reason = err.reason;
        return toolError(err.code, err.message, { connectUrl: err.connectUrl, reason: err.reason });
      }
      // A 2026 upstream refusing the caller's own request (it did not declare a capability the tool needs, -32021):
      // the caller's error, answered as the protocol error it is, as the endpoint does for a 2025 upstream's ask.
      if (err instanceof McpError && err.code === MODERN_ERROR.missingRequiredClientCapability) throw err;
      const { result, code } = upstreamFailureResult(err, call.tool.serverSlug, call.tool.timeoutMs, pool.options.halfOpenAfterMs);
      notes.errorCode = code;
      notes.reason = err instanceof Error ? err.message : String(err);
      return result;
    }
  });
}
