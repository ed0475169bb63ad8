// Outermost step: one audit event per tool call (and, through `audited`, per other operation), committed before
// the answer leaves, even when a later step throws. With a writer that splits events (audit-owner.ts), the
// request's record is committed while the call runs and the answer waits for it; the outcome completes the same
// row after the answer. Events of calls that finish together are committed together (audit/audit-writer.ts); an event the
// database cannot take is fsync'd to the local spool first. If it can be neither committed nor spooled the call
// is answered with an error, never with an unaudited result. Arguments are stored
// redacted (server/audit/redaction.ts), with the caller's stated intent (`_meta.intent`) kept apart.
import type { AuditRow, AuditWriter } from "../audit/audit-writer";
import type { RequestContext } from "../context";
import { GatewayError } from "../errors";
import type { Logger } from "../logger";
import { observeCall } from "../metrics/metrics";
import { endCallSpan, parentContextOf, tracer } from "../telemetry";
import { errorCodeOf, type AuditErrorCode, type ToolErrorCode } from "./tool-error";
import type { SessionGrant } from "../policy/evaluate";
import type { CallNotes, Middleware } from "./types";

export type AuditStatus = "ok" | "error" | "denied" | "held";

/** How the audited work is recorded: the kind's own columns, and how its result and its failures are read. */
export type AuditSpec<R> = {
  /** Whether a result is an error answer (a tool result with isError), and the code it carries. */
  judge: (result: R) => { isError: boolean; code?: ToolErrorCode | undefined };
  /** The code of an error thrown that no step noted. */
  thrown: (err: unknown) => AuditErrorCode;
  row: (status: AuditStatus, durationMs: number) => AuditRow;
  /** What is thrown instead of the answer when the event can be neither committed nor spooled. */
  withheld: (err: unknown) => Error;
  ended?: ((row: AuditRow) => void) | undefined;
};

/**
 * The audit step's core, one for every kind of operation (tool calls here, prompts, reads and completions in
 * audit-operation.ts): runs the rest of the pipeline, reads how it ended from the steps' notes, and commits the
 * event before the answer (or the error) leaves. A refusal is recorded here, from what the refusing step noted,
 * whether it answered with a value (a tool error) or threw (a JSON-RPC error).
 */
export async function audited<R>(writer: AuditWriter, logger: Logger, ctx: RequestContext, notes: CallNotes, run: () => Promise<R>, spec: AuditSpec<R>): Promise<R> {
  const started = performance.now();
  // The request's record is committed while the call runs (not awaited here: the call does not wait for it),
  // and the answer waits for it below. A rejection is read there, never left unhandled.
  const record = writer.begin?.({ ...spec.row("ok", 0), decision: null, durationMs: null });
  const committed = record?.committed.then(
    () => undefined,
    (err: unknown) => ({ err }),
  );
  let status: AuditStatus = "error";
  let outcome: { result: R } | { error: unknown };
  try {
    const result = await run();
    const judged = spec.judge(result);
    const code = judged.code ?? notes.errorCode;
    // A held call (waiting for an approver) is not a refusal; a HIGH-tier call that cannot be held is.
    status = notes.decision === "require_approval" && notes.approvalId ? "held" : notes.decision === "deny" || notes.decision === "require_approval" ? "denied" : judged.isError ? "error" : "ok";
    if (code) notes.errorCode = code;
    outcome = { result };
  } catch (err) {
    if (notes.decision === "deny") status = "denied";
    notes.errorCode ??= spec.thrown(err);
    notes.reason ??= err instanceof Error ? err.message : String(err);
    outcome = { error: err };
  }
  const row = spec.row(status, Math.round(performance.now() - started));
  spec.ended?.(row);
  try {
    if (record) {
      const failed = await committed;
      if (failed) throw failed.err;
      // The outcome completes the record after the answer (group-committed; a clean shutdown drains it). If it
      // is lost the record stays `started` and is marked interrupted once this process is gone.
      void record.end(row).catch((err: unknown) => logger.error({ err, requestId: ctx.requestId }, "the outcome of an answered call could not be audited"));
    } else await writer.write(row);
  } catch (err) {
    logger.error({ err, requestId: ctx.requestId }, "audit write failed; the request is answered with an error");
    throw spec.withheld(err);
  }
  if ("error" in outcome) throw outcome.error;
  return outcome.result;
}

/** The columns every operation's event has: who asked, through which session, and what the steps decided. */
export function auditColumns(
  ctx: RequestContext,
  notes: CallNotes,
  status: AuditStatus,
  by: { grant?: SessionGrant | undefined; mcpSessionId?: string | undefined; endpoint: string },
): Omit<AuditRow, "action" | "serverSlug" | "toolName" | "arguments" | "upstreamVersion" | "durationMs"> {
  return {
    requestId: ctx.requestId,
    // A refused request is a security event: someone (or some model) tried what it may not do.
    category: status === "denied" ? "security" : "gateway",
    actorType: ctx.actor.type,
    userId: ctx.actor.type === "user" ? ctx.actor.userId : null,
    ip: ctx.ip ?? null,
    agentId: by.grant?.agentId ?? null,
    sessionId: by.grant?.agentSessionId ?? null,
    mcpSessionId: by.mcpSessionId ?? null,
    endpoint: by.endpoint,
    decision: notes.decision ?? (status === "denied" ? "deny" : "allow"),
    ruleId: notes.ruleId ?? null,
    reason: notes.reason?.slice(0, 2000) ?? null,
    status,
    errorCode: notes.errorCode ?? null,
    resultBytes: notes.resultBytes ?? null,
    truncated: notes.truncated ?? false,
    approvalId: notes.approvalId ?? null,
    taskId: notes.taskId ?? null,
  };
}

export function auditCall(writer: AuditWriter, logger: Logger): Middleware {
  return (next) => async (call, ctx, notes) => {
    const span = tracer().startSpan(`tools/call ${call.tool.gatewayName}`, {
      attributes: {
        "portcullis.request_id": ctx.requestId,
        "portcullis.tool": call.tool.gatewayName,
        "portcullis.server": call.tool.serverSlug,
        "portcullis.endpoint": call.endpoint,
        ...(call.grant?.agentSessionId && { "portcullis.session_id": call.grant.agentSessionId }),
        ...(call.grant?.agentId && { "portcullis.agent_id": call.grant.agentId }),
      },
    }, parentContextOf(call.meta));
    return audited(writer, logger, ctx, notes, () => next(call, ctx, notes), {
      judge: (result) => ({ isError: !!result.isError, code: errorCodeOf(result) }),
      thrown: () => "internal",
      row: (status, durationMs) => ({
        ...auditColumns(ctx, notes, status, call),
        action: "tool.called",
        serverSlug: call.tool.serverSlug,
        toolName: call.tool.gatewayName,
        // Redacted (and cut when large) by the writer before it is stored.
        arguments: call.arguments,
        intent: typeof call.meta?.intent === "string" ? call.meta.intent : null,
        durationMs,
        upstreamVersion: call.tool.version,
        ...((notes.capped || notes.taskId || notes.credential || notes.servedPinned || call.virtual) && {
          details: {
            ...(notes.capped && { capped: notes.capped }),
            ...(notes.taskId && { taskId: notes.taskId }),
            ...(notes.credential && { credential: notes.credential }),
            ...(notes.servedPinned && { servedAgainstPinned: true }),
            // toolName is the real (gateway) name; the virtual server and the name the agent called are kept here.
            ...(call.virtual && { virtualServer: call.virtual.server, virtualName: call.virtual.name }),
          },
        }),
      }),
      ended: (row) => {
        const o = { status: row.status, decision: row.decision ?? "allow", durationMs: row.durationMs ?? 0 };
        endCallSpan(span, { ...o, errorCode: row.errorCode, taskId: notes.taskId, approvalId: notes.approvalId });
        observeCall({ ...o, endpoint: call.endpoint, tool: call.tool.gatewayName });
      },
      withheld: (err) =>
        new GatewayError("database_unavailable", "The call could not be audited, so its result is withheld. Try again later.", undefined, {
          cause: err,
        }),
    });
  };
}
