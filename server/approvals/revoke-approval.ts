// Withdrawing an approval: approvers withdraw a standing approval or an unused grant, a requester their own
// pending request (its held call then never runs).
import type { TApprovalDetail } from "../../lib/approval-schemas";
import type { RequestContext } from "../context";
import type { Approval } from "../db/client";
import { forbidden, GatewayError, notFound } from "../errors";
import { publishChange } from "../events/change-bus";
import { isApprover, type ApprovalScope, type ApprovalViewer } from "./approval-scope";
import { auditApproval } from "./audit-approval";
import { endHeldTask } from "./end-held-task";
import { getApproval } from "./list-approvals";

/** Withdraws a standing approval or an unused request_approval grant (approvers; or a requester their own pending request). */
export async function revokeApproval(s: ApprovalScope, ctx: RequestContext, viewer: ApprovalViewer, id: string): Promise<TApprovalDetail> {
  const { db } = s;
  await db.$transaction(async (tx) => {
    const [a] = await tx.$queryRaw<Approval[]>`SELECT * FROM approvals WHERE id = ${id} FOR UPDATE`;
    if (!a || (!isApprover(viewer.role) && a.requesterId !== viewer.userId)) throw notFound(`Approval request ${id}`);
    if (!isApprover(viewer.role) && a.status !== "PENDING") throw forbidden("Only approvers withdraw a granted approval.");
    if (!["PENDING", "APPROVED"].includes(a.status)) throw new GatewayError("conflict", `Approval ${id} is ${a.status}; there is nothing to withdraw.`, { status: a.status });
    await tx.approval.update({ where: { id }, data: { status: "CANCELED", decidedAt: a.decidedAt ?? new Date() } });
    await endHeldTask(s, tx, a.taskId, "CANCELED", "approval_withdrawn", "The approval request was withdrawn.", { approvalId: id });
    await publishChange(tx, { kind: "approval", approvalId: id, status: "CANCELED" });
    const withdrawn = await tx.approval.findUniqueOrThrow({ where: { id } });
    // The withdrawal's event commits with it (D93).
    await auditApproval(s, { action: "approval.revoked", decision: "deny" }, withdrawn, ctx, tx);
    return withdrawn;
  });
  return getApproval(s, viewer, id);
}
