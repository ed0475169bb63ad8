// Requests other than tools/call (listings, resources/read, prompts/get, completion/complete) are audited too,
// committed before the answer leaves: one event per gateway request. The writer redacts what is stored (a
// resource's URI; of prompt and completion arguments only the names are kept). If the event can be neither
// committed nor spooled (audit/audit-writer.ts), the answer is withheld.
import { ErrorCode, McpError } from "@modelcontextprotocol/sdk/types.js";
import type { AuditWriter } from "../audit/audit-writer";
import type { RequestContext } from "../context";
import type { Logger } from "../logger";
import type { ToolErrorCode } from "../pipeline/tool-error";

export type ListAction = "tools.listed" | "prompts.listed" | "resources.listed" | "resource_templates.listed";
const LIST_ACTIONS: readonly string[] = ["tools.listed", "prompts.listed", "resources.listed", "resource_templates.listed"];

/** The listing a request method answers (`tools/list` → tools.listed), if it is one. */
export function listActionOf(method: string): ListAction | undefined {
  const action = { "tools/list": "tools.listed", "prompts/list": "prompts.listed", "resources/list": "resources.listed", "resources/templates/list": "resource_templates.listed" }[method];
  return action as ListAction | undefined;
}

export type AuditedRequestInfo = {
  /** `tool.called` only for a call refused before the pipeline (an unknown tool name). */
  action: "resource.read" | "prompt.fetched" | "completion.requested" | "tool.called" | ListAction;
  endpoint: string;
  serverSlug: string;
  /** Resource URI, prompt, tool or reference name; the method for listings. */
  target: string;
  argumentKeys?: string[];
  /** Arguments to keep in full instead of their names (execute_code's program), redacted and bounded by the writer. */
  arguments?: Record<string, unknown> | undefined;
  upstreamVersion?: string | undefined;
  mcpSessionId?: string | undefined;
  /** Set when the session may not make this request: it is audited as a security event and refused, never sent. */
  denied?: { code: ToolErrorCode; reason: string } | undefined;
};

/** A request's record when it is refused: the reason is required. */
export type RefusalInfo = AuditedRequestInfo & { denied: { code: ToolErrorCode; reason: string } };

/**
 * A request refused before anything ran (`info.denied`), recorded as a security event and answered with
 * `answer()` (a tool error the agent can act on, such as rate_limited with a retry hint), or without one with an
 * InvalidParams protocol error. Nothing is executed: there is no `fn` to stand in for.
 */
export function auditedRefusal<T>(
  deps: { audit: AuditWriter; logger: Logger },
  ctx: RequestContext,
  info: RefusalInfo,
  answer?: () => T,
): Promise<T> {
  return auditedRequest(deps, ctx, info, null, answer);
}

/**
 * Runs `fn` and records the request. With `info.denied` it is a refusal instead (see auditedRefusal):
 * `deniedAnswer` is what it answers, and `fn` is never called.
 */
export async function auditedRequest<T>(
  deps: { audit: AuditWriter; logger: Logger },
  ctx: RequestContext,
  info: AuditedRequestInfo,
  fn: (() => Promise<T>) | null,
  deniedAnswer?: () => T,
): Promise<T> {
  const started = performance.now();
  let outcome: { value: T } | { error: unknown };
  let errorCode: string | null = null;
  let reason: string | null = null;
  try {
    if (info.denied && !deniedAnswer) throw new McpError(ErrorCode.InvalidParams, `[${info.denied.code}] ${info.denied.reason}`);
    if (!info.denied && !fn) throw new Error("auditedRequest: a request that is not refused needs its fn");
    outcome = { value: info.denied && deniedAnswer ? deniedAnswer() : await fn!() };
    if (info.denied) {
      errorCode = info.denied.code;
      reason = info.denied.reason;
    }
  } catch (err) {
    outcome = { error: err };
    errorCode = info.denied?.code ?? (typeof (err as { code?: unknown }).code === "number" ? `mcp_${String((err as { code: number }).code)}` : "upstream_error");
    reason = (err instanceof Error ? err.message : String(err)).slice(0, 2000);
  }
  try {
    // The same group-committing writer as tool calls: nothing is answered that is not audited.
    await deps.audit.write({
      requestId: ctx.requestId,
      action: info.action,
      category: info.denied ? "security" : "gateway",
      actorType: ctx.actor.type,
      userId: ctx.actor.type === "user" ? ctx.actor.userId : null,
      ip: ctx.ip ?? null,
      endpoint: info.endpoint,
      mcpSessionId: info.mcpSessionId ?? null,
      agentId: ctx.agent?.agentId ?? null,
      sessionId: ctx.agent?.agentSessionId ?? null,
      serverSlug: info.serverSlug,
      toolName: info.action === "resource.read" || LIST_ACTIONS.includes(info.action) ? null : info.target,
      targetType: LIST_ACTIONS.includes(info.action) ? "listing" : { "resource.read": "resource", "prompt.fetched": "prompt", "completion.requested": "completion", "tool.called": "tool" }[info.action as string],
      arguments: info.arguments ?? (info.action === "resource.read" ? { uri: info.target } : { keys: info.argumentKeys ?? [] }),
      decision: info.denied ? "deny" : "allow",
      ruleId: null,
      reason,
      status: info.denied ? "denied" : "error" in outcome ? "error" : "ok",
      errorCode,
      durationMs: Math.round(performance.now() - started),
      resultBytes: null,
      truncated: false,
      upstreamVersion: info.upstreamVersion ?? null,
    });
  } catch (err) {
    deps.logger.error({ err, requestId: ctx.requestId }, "audit write failed; the request is answered with an error");
    throw new McpError(ErrorCode.InternalError, "The request could not be audited, so its result is withheld. Try again later.");
  }
  if ("error" in outcome) throw outcome.error;
  return outcome.value;
}
