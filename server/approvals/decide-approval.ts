// An approver's decision, under a row lock (of two approvers racing exactly one decision wins): reject ends the
// held call's task; enough approvals release it (or grant the request_approval call), optionally with a standing
// approval of the tool for the session.
import type { TApprovalDecisionInput, TApprovalDetail, TApprovalStatus } from "../../lib/approval-schemas";
import type { RequestContext } from "../context";
import type { Approval, DbTx, Task } from "../db/client";
import { forbidden, GatewayError, notFound } from "../errors";
import { publishChange } from "../events/change-bus";
import { isApprover, type ApprovalScope, type ApprovalViewer } from "./approval-scope";
import { auditApproval } from "./audit-approval";
import { auditTransitionIn } from "../tasks/audit-transition";
import { endHeldTask } from "./end-held-task";
import { expireAudited } from "./expire-approvals";
import { getApproval } from "./list-approvals";

/** Locks the row for a decision; 404 for requests the viewer may not see. */
async function lockForDecision(tx: DbTx, viewer: ApprovalViewer, id: string): Promise<Approval> {
  const [row] = await tx.$queryRaw<Approval[]>`SELECT * FROM approvals WHERE id = ${id} FOR UPDATE`;
  if (!row || (!isApprover(viewer.role) && row.requesterId !== viewer.userId)) throw notFound(`Approval request ${id}`);
  if (!isApprover(viewer.role)) throw forbidden("Only approvers and admins decide approval requests.");
  if (row.requesterId === viewer.userId) throw new GatewayError("forbidden", "You cannot decide your own request: another approver must.");
  return row;
}

/** An approver's decision. 403 own request, 409 once decided (or already decided by this approver), 404 unknown. */
export async function decideApproval(s: ApprovalScope, ctx: RequestContext, viewer: ApprovalViewer, id: string, input: TApprovalDecisionInput): Promise<TApprovalDetail> {
  const { db, engine, opts } = s;
  const approverEmail = ctx.actor.type === "user" ? ctx.actor.email : "an approver";
  const comment = input.comment?.trim() || null;
  type Outcome = { expired: Approval } | { row: Approval; task: Task | null; standing: Approval | null; status: TApprovalStatus };
  const outcome = await db.$transaction(async (tx): Promise<Outcome> => {
    const a = await lockForDecision(tx, viewer, id);
    // Past its time but not yet swept: it is expired (committed below), not decided.
    if (a.status === "PENDING" && a.expiresAt <= new Date()) return { expired: a };
    // Expired by the sweep or at decision time: the same answer, whichever got there first.
    if (a.status === "EXPIRED") throw new GatewayError("conflict", `Approval request ${id} has expired; it can no longer be decided.`, { status: a.status });
    if (a.status !== "PENDING") throw new GatewayError("conflict", `Approval request ${id} has already been decided (${a.status}).`, { status: a.status });
    const mine = await tx.approvalDecision.findUnique({ where: { approvalId_approverId: { approvalId: id, approverId: viewer.userId } } });
    if (mine) throw new GatewayError("conflict", `You already approved request ${id}; it needs another approver.`, { status: a.status });
    await tx.approvalDecision.create({ data: { approvalId: id, approverId: viewer.userId, decision: input.decision, comment } });
    const now = new Date();
    let task: Task | null = null;
    let status: TApprovalStatus = "PENDING";
    let standing: Approval | null = null;
    if (input.decision === "reject") {
      status = "REJECTED";
      await tx.approval.update({ where: { id }, data: { status, decidedAt: now, decisionComment: comment } });
      // The approver is named by structure (the task event's `by`, the audit events' actor), shown in the clear
      // to those who may see it; this text reaches the agent and the audit log's reason, where redaction masks
      // any address, so it names nobody.
      const why = `Rejected by an approver${comment ? `: ${comment}` : "."}`;
      task = await endHeldTask(s, tx, a.taskId, "CANCELED", "approval_rejected", why, { by: approverEmail, reason: comment, approvalId: id });
    } else {
      const approvals = await tx.approvalDecision.count({ where: { approvalId: id, decision: "approve" } });
      if (approvals >= a.requiredApprovals) {
        status = a.kind === "CALL" ? "USED" : "APPROVED";
        await tx.approval.update({
          where: { id },
          data: {
            status,
            decidedAt: now,
            decisionComment: comment,
            ...(a.kind === "CALL" && { usedAt: now }),
            ...(a.kind === "ADVANCE" && { expiresAt: new Date(now.getTime() + opts.useWindowMs) }),
          },
        });
        if (a.taskId) await engine.release(tx, a.taskId, { by: approverEmail, comment, approvalId: id });
        if (input.standingMinutes && a.agentSessionId) {
          const until = new Date(now.getTime() + input.standingMinutes * 60_000);
          standing = await tx.approval.create({
            data: {
              kind: "STANDING",
              status: "APPROVED",
              requesterId: a.requesterId,
              agentSessionId: a.agentSessionId,
              agentId: a.agentId,
              toolId: a.toolId,
              toolName: a.toolName,
              arguments: {},
              argumentsRedacted: {},
              argumentsHash: "*",
              justification: a.justification,
              reason: `Standing approval from request ${id}`,
              expiresAt: until,
              standingUntil: until,
              decidedAt: now,
              decisionComment: comment,
            },
          });
          await tx.approvalDecision.create({ data: { approvalId: standing.id, approverId: viewer.userId, decision: "approve", comment } });
        }
      }
    }
    await publishChange(tx, { kind: "approval", approvalId: id, status });
    const row = await tx.approval.findUniqueOrThrow({ where: { id } });
    // The decision's events commit with it (D93).
    const action = input.decision === "reject" ? "approval.rejected" : status === "PENDING" ? "approval.approved_first" : "approval.approved";
    await auditApproval(s, { action, reason: comment, decision: input.decision === "reject" ? "deny" : "allow" }, row, ctx, tx);
    if (standing) await auditApproval(s, { action: "approval.standing_granted", reason: comment, decision: "allow", details: { until: standing.standingUntil?.toISOString(), from: id } }, standing, ctx, tx);
    if (task) await auditTransitionIn(tx, s, task, task.toolName, ctx);
    return { row, task, standing, status };
  });
  if ("expired" in outcome) {
    await db.$transaction((tx) => expireAudited(s, tx, outcome.expired));
    throw new GatewayError("conflict", `Approval request ${id} has expired; it can no longer be decided.`, { status: "EXPIRED" });
  }
  return getApproval(s, viewer, id);
}
