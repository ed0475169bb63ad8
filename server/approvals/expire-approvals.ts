// Expiry: overdue requests, unused request_approval grants and ended standing approvals turn EXPIRED (a held
// call's task with them). Every process sweeps; SKIP LOCKED shares the rows out.
import type { Approval, DbTx, Task } from "../db/client";
import { publishChange } from "../events/change-bus";
import type { ApprovalScope } from "./approval-scope";
import { auditApproval } from "./audit-approval";
import { endHeldTask } from "./end-held-task";

/** Expires one locked request (and its held task) in the caller's transaction. */
export async function expireApproval(s: ApprovalScope, tx: DbTx, a: Approval): Promise<Task | null> {
  await tx.approval.update({ where: { id: a.id }, data: { status: "EXPIRED" } });
  await publishChange(tx, { kind: "approval", approvalId: a.id, status: "EXPIRED" });
  return endHeldTask(s, tx, a.taskId, "EXPIRED", "approval_expired", `Nobody decided approval request ${a.id} before it expired at ${a.expiresAt.toISOString()}; the call was not made.`, { approvalId: a.id });
}

/** Expires overdue requests, unused grants and ended standing approvals (every process, every sweepIntervalMs). */
export async function expireApprovals(s: ApprovalScope): Promise<number> {
  const { db, engine, log } = s;
  const done: { a: Approval; task: Task | null }[] = [];
  await db.$transaction(async (tx) => {
    const rows = await tx.$queryRaw<Approval[]>`
      SELECT * FROM approvals WHERE status IN ('PENDING', 'APPROVED') AND "expiresAt" <= now()
      ORDER BY "expiresAt" LIMIT 200 FOR UPDATE SKIP LOCKED`;
    for (const a of rows) done.push({ a, task: await expireApproval(s, tx, a) });
  });
  for (const { a, task } of done) {
    await auditApproval(s, { action: "approval.expired", decision: "deny", status: "error", errorCode: "approval_expired" }, { ...a, status: "EXPIRED" });
    if (task) await engine.auditTransition(task, task.toolName);
  }
  if (done.length) log.info({ count: done.length }, "expired approval requests");
  return done.length;
}
