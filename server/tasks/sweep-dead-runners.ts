// Tasks of stopped gateway processes (their runner's advisory lock is free): retryable ones are queued again
// (until maxAttempts), the others end FAILED `interrupted`; their claims (call_claims) are deleted. Jobs their
// workers had locked (a task's before it was claimed, a webhook's) are freed to run again (worker-locks.ts).
import type { Task } from "../db/client";
import { publishChange } from "../events/change-bus";
import type { ToolErrorCode } from "../pipeline/tool-error";
import { auditTransitionIn } from "./audit-transition";
import { CLAIM_ORIGIN } from "./claim-origin";
import { enqueueTask, taskEvent } from "./task-event";
import { expiryFrom, RUNNER_LOCK_CLASS, type TaskScope } from "./task-scope";
import { webhookOnFinish } from "./webhook-jobs";
import { unlockDeadWorkers } from "./worker-locks";

/**
 * Tasks of dead runners: retryable ones are queued again (until maxAttempts), the rest fail `interrupted`; then
 * the jobs of dead workers are freed.
 */
export async function sweepDeadRunners(s: TaskScope): Promise<number> {
  const { db, log, runnerId } = s;
  const rows = await db.$queryRaw<{ runnerId: string }[]>`
    SELECT "runnerId" FROM tasks WHERE status = 'RUNNING' AND "runnerId" IS NOT NULL AND "runnerId" <> ${runnerId}
    UNION SELECT "runnerId" FROM call_claims WHERE "runnerId" <> ${runnerId}`;
  let recovered = 0;
  for (const { runnerId: other } of rows) recovered += await recoverRunner(s, other);
  if (recovered) log.warn({ recovered }, "recovered tasks of stopped gateway processes");
  const freed = await unlockDeadWorkers(db);
  if (freed.length) log.warn({ workers: freed }, "freed the jobs locked by workers of stopped gateway processes");
  return recovered;
}

/**
 * The tasks of runner `other`, if its process is gone (its lock is free): this process's own at the end of a
 * drain, once its lock is released, so they go back to the queue now rather than at another process's next sweep.
 * Jobs its workers still lock are freed by `unlockDeadWorkers` (the sweep's next step; a drain's own jobs are let
 * go by graphile-worker's stop).
 */
export async function recoverRunner(s: TaskScope, other: string): Promise<number> {
  const { db, opts } = s;
  let recovered = 0;
  await db.$transaction(async (tx) => {
    // Free only if its process is gone (a live runner holds it on its own connection).
    const [lock] = await tx.$queryRaw<
      { free: boolean }[]
    >`SELECT pg_try_advisory_xact_lock(${RUNNER_LOCK_CLASS}::int, hashtext(${other})) AS free`;
    if (!lock?.free) return;
    const tasks = await tx.$queryRaw<
      Task[]
    >`SELECT * FROM tasks WHERE status = 'RUNNING' AND "runnerId" = ${other} FOR UPDATE`;
    // Its calls in flight: a claim nobody joined ends here (its caller's request died with the process); one a
    // twin joined is a RUNNING task, recovered below.
    await tx.$executeRaw`DELETE FROM call_claims WHERE "runnerId" = ${other}`;
    for (const t of tasks) {
      // A claim row of a gateway before call_claims (never handed to anyone): its caller's request died with it.
      if (t.origin === CLAIM_ORIGIN) {
        await tx.task.delete({ where: { id: t.id } });
        continue;
      }
      recovered++;
      if (t.retryable && t.attempts < t.maxAttempts) {
        await tx.task.update({ where: { id: t.id }, data: { status: "PENDING", runnerId: null, workerId: null } });
        await taskEvent(tx, t.id, "recovered", { action: "requeued", deadRunner: other, attempt: t.attempts });
        await enqueueTask(tx, t.id);
        await publishChange(tx, { kind: "task", taskId: t.id, status: "PENDING" });
      } else {
        const reason = t.retryable
          ? `The gateway process running this task stopped, and it has already started ${String(t.attempts)} times.`
          : "The gateway process running this task stopped before it finished. The tool is neither read-only nor idempotent, so it was not run again: check its effects before you retry.";
        const done = await tx.task.update({
          where: { id: t.id },
          data: {
            status: "FAILED",
            errorCode: "interrupted" satisfies ToolErrorCode,
            errorMessage: reason,
            finishedAt: new Date(),
            runnerId: null,
            expiresAt: expiryFrom(opts, new Date()),
          },
        });
        await taskEvent(tx, t.id, "recovered", { action: "failed", deadRunner: other, attempt: t.attempts });
        await webhookOnFinish(tx, done);
        await publishChange(tx, { kind: "task", taskId: t.id, status: "FAILED" });
        // The end's audit event commits with it (D93).
        await auditTransitionIn(tx, s, done, done.toolName);
      }
    }
  });
  return recovered;
}
