// One audit event of an approval (requested, decided, revealed, expired…). Given the transaction that makes the
// change, the event commits with it (D93): both or neither. Without one (a read, such as a reveal), a failed
// write is logged, not thrown.
import type { AuditRow } from "../audit/audit-writer";
import type { RequestContext } from "../context";
import type { Approval, DbTx } from "../db/client";
import type { ApprovalScope } from "./approval-scope";

export async function auditApproval(
  s: ApprovalScope,
  row: Partial<AuditRow> & { action: string },
  a: Approval,
  ctx?: RequestContext,
  tx?: DbTx,
) {
  const { audit, log } = s;
  const event = approvalEvent(row, a, ctx);
  if (tx) return audit.inTransaction(tx, event);
  try {
    await audit.write(event);
  } catch (err) {
    log.error({ err, approvalId: a.id }, `audit of ${row.action} failed`);
  }
}

function approvalEvent(row: Partial<AuditRow> & { action: string }, a: Approval, ctx?: RequestContext): AuditRow {
  return {
    requestId: ctx?.requestId ?? null,
    category: "gateway",
    actorType: ctx?.actor.type ?? "system",
    userId: ctx?.actor.type === "user" ? ctx.actor.userId : null,
    ip: ctx?.ip ?? null,
    endpoint: null,
    serverSlug: a.toolName.split("__")[0] ?? null,
    toolName: a.toolName,
    agentId: a.agentId,
    sessionId: a.agentSessionId,
    targetType: "approval",
    arguments: a.arguments ?? {},
    decision: null,
    ruleId: a.ruleId,
    reason: null,
    status: "ok",
    errorCode: null,
    durationMs: null,
    resultBytes: null,
    truncated: false,
    upstreamVersion: null,
    approvalId: a.id,
    taskId: a.taskId,
    ...row,
  };
}
