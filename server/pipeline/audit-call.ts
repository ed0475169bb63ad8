// Outermost step: one audit event per tool call, committed before the answer leaves, even when a later step
// throws. Events of calls that finish together are committed together (audit/audit-writer.ts); an event the
// database cannot take is fsync'd to the local spool first. If it can be neither committed nor spooled the call
// is answered with an error, never with an unaudited result. Arguments are stored
// redacted (server/audit/redaction.ts), with the caller's stated intent (`_meta.intent`) kept apart.
import { auditWriterFor, type AuditRow } from "../audit/audit-writer";
import type { DbTx } from "../db/client";
import { GatewayError } from "../errors";
import type { Logger } from "../logger";
import { observeCall } from "../metrics/metrics";
import { endCallSpan, tracer } from "../telemetry";
import { errorCodeOf } from "./tool-error";
import type { Middleware } from "./types";

export function auditCall(db: DbTx, logger: Logger): Middleware {
  const writer = auditWriterFor(db);
  return (next) => async (call, ctx, notes) => {
    const started = performance.now();
    const span = tracer().startSpan(`tools/call ${call.tool.gatewayName}`, {
      attributes: {
        "portcullis.request_id": ctx.requestId,
        "portcullis.tool": call.tool.gatewayName,
        "portcullis.server": call.tool.serverSlug,
        "portcullis.endpoint": call.endpoint,
        ...(call.grant?.agentSessionId && { "portcullis.session_id": call.grant.agentSessionId }),
        ...(call.grant?.agentId && { "portcullis.agent_id": call.grant.agentId }),
      },
    });
    let status: "ok" | "error" | "denied" | "held" = "error";
    let outcome: { result: Awaited<ReturnType<typeof next>> } | { error: unknown };
    try {
      const result = await next(call, ctx, notes);
      const code = errorCodeOf(result) ?? notes.errorCode;
      // A held call (waiting for an approver) is not a refusal; a HIGH-tier call that cannot be held is.
      status = notes.decision === "require_approval" && notes.approvalId ? "held" : notes.decision === "deny" || notes.decision === "require_approval" ? "denied" : result.isError ? "error" : "ok";
      if (code) notes.errorCode = code;
      outcome = { result };
    } catch (err) {
      notes.errorCode ??= "internal";
      notes.reason ??= err instanceof Error ? err.message : String(err);
      outcome = { error: err };
    }
    const row: AuditRow = {
      requestId: ctx.requestId,
      action: "tool.called",
      // A refused call is a security event: someone (or some model) tried what it may not do.
      category: status === "denied" ? "security" : "gateway",
      actorType: ctx.actor.type,
      userId: ctx.actor.type === "user" ? ctx.actor.userId : null,
      ip: ctx.ip ?? null,
      agentId: call.grant?.agentId ?? null,
      sessionId: call.grant?.agentSessionId ?? null,
      mcpSessionId: call.mcpSessionId ?? null,
      endpoint: call.endpoint,
      serverSlug: call.tool.serverSlug,
      toolName: call.tool.gatewayName,
      // Redacted (and cut when large) by the writer before it is stored.
      arguments: call.arguments,
      intent: typeof call.meta?.intent === "string" ? call.meta.intent : null,
      decision: notes.decision ?? (status === "denied" ? "deny" : "allow"),
      ruleId: notes.ruleId ?? null,
      reason: notes.reason?.slice(0, 2000) ?? null,
      status,
      errorCode: notes.errorCode ?? null,
      durationMs: Math.round(performance.now() - started),
      resultBytes: notes.resultBytes ?? null,
      truncated: notes.truncated ?? false,
      upstreamVersion: call.tool.version,
      approvalId: notes.approvalId ?? null,
      taskId: notes.taskId ?? null,
      ...((notes.capped || notes.taskId) && { details: { ...(notes.capped && { capped: notes.capped }), ...(notes.taskId && { taskId: notes.taskId }) } }),
    };
    endCallSpan(span, { status, decision: row.decision ?? "allow", errorCode: row.errorCode, durationMs: row.durationMs ?? 0, taskId: notes.taskId, approvalId: notes.approvalId });
    observeCall({ endpoint: call.endpoint, tool: call.tool.gatewayName, status, decision: row.decision ?? "allow", durationMs: row.durationMs ?? 0 });
    try {
      await writer.write(row);
    } catch (err) {
      logger.error({ err, requestId: ctx.requestId }, "audit write failed; the call is answered with an error");
      throw new GatewayError("database_unavailable", "The call could not be audited, so its result is withheld. Try again later.", undefined, {
        cause: err,
      });
    }
    if ("error" in outcome) throw outcome.error;
    return outcome.result;
  };
}
