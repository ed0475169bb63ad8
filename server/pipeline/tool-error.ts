// Denials and faults the model can act on: an MCP tool result with isError, a stable code, and a reason.
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";

export type ToolErrorCode =
  | "invalid_arguments"
  | "tool_not_allowed"
  | "policy_denied"
  | "approval_required"
  /** The tool runs only as a queued task (async) and the client cannot take one (a 2026 client without the tasks extension). */
  | "task_required"
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
  /** A held call's approval was rejected, withdrawn by its requester, or expired undecided: the call was not made. */
  | "approval_rejected"
  | "approval_withdrawn"
  | "approval_expired"
  /** A resource read outside the session's allowed paths. */
  | "path_not_allowed"
  /** The tool itself answered with isError and no code of the gateway's (a task's outcome). */
  | "tool_error"
  /** A fault inside the gateway while running the call (the audit step's default, a task that threw). */
  | "internal"
  /** The process running a task died and the task may not run twice (tasks/task-engine.ts sweep). */
  | "interrupted"
  /** A queued task whose session, user, grant, tool or tier no longer lets it run (tasks/revoke-task.ts). */
  | "authorization_revoked"
  | "unknown_tool"
  /** A name that cannot name any tool (control characters, outside the MCP alphabet, over-long): refused before any lookup. */
  | "invalid_tool_name"
  /** browse_catalog / search_tools: a server the session may not use or that does not exist (the same answer). */
  | "unknown_server"
  /** browse_catalog: a cursor it did not hand out for this listing (malformed, over-long, or another listing's). */
  | "invalid_cursor"
  /** The upstream acts as the signed-in person and this user has no usable connection to it (upstream-auth/). */
  | "upstream_auth_required"
  /** The upstream now offers the tool with a definition other than the approved (pinned) one; the change waits for review. */
  | "tool_definition_changed";

/** What an audit event's errorCode holds: a tool-error code, or an upstream's JSON-RPC error kept by its number (`mcp_-32002`: not found). */
export type AuditErrorCode = ToolErrorCode | `mcp_${number}`;

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

/** Every code once: the type makes this list complete and forbids an unknown one. */
const TOOL_ERROR_CODES: Record<ToolErrorCode, true> = {
  invalid_arguments: true,
  tool_not_allowed: true,
  policy_denied: true,
  approval_required: true,
  task_required: true,
  rate_limited: true,
  upstream_unavailable: true,
  upstream_timeout: true,
  upstream_error: true,
  upstream_capacity: true,
  canceled: true,
  tool_disabled: true,
  request_too_large: true,
  task_not_found: true,
  task_finished: true,
  approval_not_found: true,
  approval_rejected: true,
  approval_withdrawn: true,
  approval_expired: true,
  path_not_allowed: true,
  tool_error: true,
  internal: true,
  interrupted: true,
  authorization_revoked: true,
  unknown_tool: true,
  invalid_tool_name: true,
  unknown_server: true,
  invalid_cursor: true,
  upstream_auth_required: true,
  tool_definition_changed: true,
};

export const isToolErrorCode = (code: unknown): code is ToolErrorCode => typeof code === "string" && Object.hasOwn(TOOL_ERROR_CODES, code);

/**
 * The gateway's code of an error result. A result is the upstream's own when it passes through, and an upstream
 * may put anything in `_meta`: a code outside the vocabulary is not taken for one of ours.
 */
export function errorCodeOf(result: CallToolResult): ToolErrorCode | undefined {
  const meta = result._meta?.["portcullis/error"] as { code?: unknown } | undefined;
  return isToolErrorCode(meta?.code) ? meta.code : undefined;
}
