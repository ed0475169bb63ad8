// One audit event of an approval (requested, decided, revealed, expired…). A failed write is logged, not thrown:
// the decision it records is committed already.
import type { AuditRow } from "../audit/audit-writer";
import type { RequestContext } from "../context";
import type { Approval } from "../db/client";
import type { ApprovalScope } from "./approval-scope";

export async function auditApproval(s: ApprovalScope, row: Partial<AuditRow> & { action: string }, a: Approval, ctx?: RequestContext) {
  const { audit, log } = s;
  try {
    await audit.write({
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
    });
  } catch (err) {
    log.error({ err, approvalId: a.id }, `audit of ${row.action} failed`);
  }
}
