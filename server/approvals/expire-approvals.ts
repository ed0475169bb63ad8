// Expiry: overdue requests, unused request_approval grants and ended standing approvals turn EXPIRED (a held
// call's task with them). Every process sweeps; SKIP LOCKED shares the rows out.
import type { Approval, DbTx, Task } from "../db/client";
import { publishChange } from "../events/change-bus";
import type { ApprovalScope } from "./approval-scope";
import { auditApproval } from "./audit-approval";
import { endHeldTask } from "./end-held-task";
import { auditTransitionIn } from "../tasks/audit-transition";

/** Expires one locked request (and its held task) in the caller's transaction. */
export async function expireApproval(s: ApprovalScope, tx: DbTx, a: Approval): Promise<Task | null> {
  await tx.approval.update({ where: { id: a.id }, data: { status: "EXPIRED" } });
  await publishChange(tx, { kind: "approval", approvalId: a.id, status: "EXPIRED" });
  return endHeldTask(s, tx, a.taskId, "EXPIRED", "approval_expired", `Nobody decided approval request ${a.id} before it expired at ${a.expiresAt.toISOString()}; the call was not made.`, { approvalId: a.id });
}

/** Expires one locked request and its held task, with their audit events, in the caller's transaction (D93). */
export async function expireAudited(s: ApprovalScope, tx: DbTx, a: Approval): Promise<void> {
  const task = await expireApproval(s, tx, a);
  await auditApproval(s, { action: "approval.expired", decision: "deny", status: "error", errorCode: "approval_expired" }, { ...a, status: "EXPIRED" }, undefined, tx);
  if (task) await auditTransitionIn(tx, s, task, task.toolName);
}

/** Expires overdue requests, unused grants and ended standing approvals (every process, every sweepIntervalMs). */
export async function expireApprovals(s: ApprovalScope): Promise<number> {
  const { db, log } = s;
  const count = await db.$transaction(async (tx) => {
    const rows = await tx.$queryRaw<Approval[]>`
      SELECT * FROM approvals WHERE status IN ('PENDING', 'APPROVED') AND "expiresAt" <= now()
      ORDER BY "expiresAt" LIMIT 200 FOR UPDATE SKIP LOCKED`;
    for (const a of rows) await expireAudited(s, tx, a);
    return rows.length;
  });
  if (count) log.info({ count }, "expired approval requests");
  return count;
}
