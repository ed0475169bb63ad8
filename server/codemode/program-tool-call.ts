// A tool call from inside a program (`await tools.<server>.<tool>(args)`): refused names and unknown tools are
// audited refusals, everything else goes through the full pipeline with the caller's grant, under the caller's
// request id; the answer is what the program sees, and the call is added to the run's account.
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { auditedRefusal } from "../mcp/audited-request";
import { invalidToolName } from "../mcp/refuse-invalid-tool-name";
import { errorCodeOf, type ToolErrorCode } from "../pipeline/tool-error";
import type { CallNotes } from "../pipeline/types";
import { printableToolName } from "../registry/gateway-name";
import { taskContextOf } from "../tasks/task-tools";
import type { BridgeAnswer } from "./executor";
import { isPreludeServer } from "./prelude-servers";
import type { InnerCall, ProgramRun } from "./program-scope";
import { workspaceCall } from "./workspace-call";

/** The pipeline's own refusal of a call (tool_not_allowed, rate_limited, …), if `result` is one. */
function gatewayRefusal(result: CallToolResult): { code: ToolErrorCode; message: string } | undefined {
  const meta = result._meta?.["portcullis/error"] as { message?: string } | undefined;
  const code = errorCodeOf(result);
  if (!result.isError || !code) return undefined;
  const text = (result.content ?? []).find((c) => c.type === "text")?.text;
  return { code, message: meta?.message ?? text ?? code };
}

/** One tool call from inside the program: the full pipeline, audited under the caller's request id. */
export async function programToolCall(program: ProgramRun, serverSlug: string, tool: string, args: unknown): Promise<BridgeAnswer> {
  const { deps, scope, calls, vault } = program;
  if (args !== undefined && (typeof args !== "object" || args === null || Array.isArray(args))) {
    return { ok: false, error: { name: "TypeError", message: `tools.${serverSlug}.${tool} takes one object of arguments.` } };
  }
  if (vault) args = vault.restore(args);
  if (isPreludeServer(serverSlug)) return workspaceCall(deps.workspace, scope.grant.userId, serverSlug, tool, (args ?? {}) as Record<string, unknown>);
  const gatewayName = `${serverSlug}__${tool}`;
  const malformed = invalidToolName({ endpoint: scope.endpoint ?? "code", serverSlug: "", mcpSessionId: scope.mcpSessionId, name: gatewayName, arguments: args });
  const started = performance.now();
  const record = (status: InnerCall["status"], notes: CallNotes, extra: Partial<InnerCall> = {}) =>
    calls.push({ tool: malformed ? printableToolName(gatewayName) : gatewayName, status, decision: notes.decision ?? null, code: notes.errorCode ?? null, durationMs: Math.round((performance.now() - started) * 10) / 10, ...extra });
  // Refused before the name is looked up or counted, and audited as a security event like the endpoints' refusal.
  if (malformed) {
    await auditedRefusal(deps, scope.ctx, malformed.info, () => null);
    record("refused", { errorCode: "invalid_tool_name" });
    return { ok: false, error: { name: "InvalidToolName", code: "invalid_tool_name", message: malformed.reason } };
  }
  const resolved = await deps.registry.resolveTool(gatewayName, scope.bucket);
  if ("error" in resolved) {
    record("refused", { errorCode: "unknown_tool" });
    const refused: BridgeAnswer = { ok: false, error: { name: "UnknownTool", code: "unknown_tool", message: resolved.error } };
    // Refused before the pipeline, and an audit event all the same (as on /mcp), under the caller's request id.
    const info = { action: "tool.called" as const, endpoint: scope.endpoint ?? "code", serverSlug, target: gatewayName, argumentKeys: Object.keys(args ?? {}), mcpSessionId: scope.mcpSessionId, denied: { code: "unknown_tool" as const, reason: resolved.error } };
    return auditedRefusal(deps, scope.ctx, info, () => refused);
  }
  const tc = taskContextOf(scope.grant, "mcp/code", {});
  const notes: CallNotes = {};
  const result = await deps.pipeline(
    {
      tool: resolved.tool,
      refusal: resolved.refusal,
      arguments: (args ?? {}) as Record<string, unknown>,
      endpoint: scope.endpoint ?? "code",
      sessionKey: scope.sessionKey,
      mcpSessionId: scope.mcpSessionId,
      grant: scope.grant,
      // Inline: the call runs to its end inside the program (never a task); the context only lets a
      // HIGH-tier call be held for a person.
      ...(tc && { task: { ...tc, inline: true } }),
      // A signal per call: the SDK adds an abort listener per request and keeps it, so one signal shared by a
      // program's many calls would collect them (MaxListenersExceededWarning past ten).
      signal: AbortSignal.any([scope.signal]),
    },
    scope.ctx,
    notes,
  );
  if (notes.decision === "require_approval" && notes.approvalId) {
    record("held", notes, { approvalId: notes.approvalId });
    return {
      ok: false,
      error: {
        name: "ApprovalRequired",
        code: "approval_required",
        approvalId: notes.approvalId,
        message: `${gatewayName} needs a person's approval (request ${notes.approvalId}); the call runs once approved — follow it with get_approval_status.`,
      },
    };
  }
  const refused = gatewayRefusal(result);
  if (refused) {
    record("refused", { ...notes, errorCode: refused.code });
    return { ok: false, error: { name: "ToolCallRefused", code: refused.code, message: refused.message } };
  }
  record(result.isError ? "error" : "ok", notes);
  const structured = resolved.tool.outputSchema && result.structuredContent !== undefined && !result.isError;
  return { ok: true, value: structured ? result.structuredContent : { content: result.content, ...(result.isError && { isError: true }) } };
}
