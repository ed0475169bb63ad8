// Denials and faults the model can act on: an MCP tool result with isError, a stable code, and a reason.
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";

export type ToolErrorCode =
  | "invalid_arguments"
  | "tool_not_allowed"
  | "policy_denied"
  | "approval_required"
  | "rate_limited"
  | "upstream_unavailable"
  | "upstream_timeout"
  | "upstream_error"
  | "upstream_capacity"
  | "canceled"
  | "tool_disabled"
  | "request_too_large"
  | "task_not_found"
  | "task_finished"
  | "approval_not_found"
  /** A queued task whose session, user, grant, tool or tier no longer lets it run (tasks/revoke-task.ts). */
  | "authorization_revoked"
  | "unknown_tool"
  /** A name that cannot name any tool (control characters, outside the MCP alphabet, over-long): refused before any lookup. */
  | "invalid_tool_name";

/**
 * No structuredContent: clients check it against the tool's outputSchema, which an error does not match.
 * The code and details travel in `_meta["portcullis/error"]`; the text leads with the code for the model.
 */
export function toolError(code: ToolErrorCode, message: string, extra: Record<string, unknown> = {}): CallToolResult {
  return {
    isError: true,
    content: [{ type: "text", text: `[${code}] ${message}` }],
    _meta: { "portcullis/error": { code, message, ...extra } },
  };
}

export function errorCodeOf(result: CallToolResult): string | undefined {
  const meta = result._meta?.["portcullis/error"] as { code?: unknown } | undefined;
  return typeof meta?.code === "string" ? meta.code : undefined;
}
