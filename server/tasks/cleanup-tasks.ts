// Retention: finished tasks (with their events and deliveries) are deleted once past expiresAt, and the claims of
// ended tasks (call_claims) with them.
import type { TaskScope } from "./task-scope";

/** Deletes finished tasks past their retention (events and deliveries go with them). */
export async function cleanupTasks(s: TaskScope): Promise<number> {
  const { db, log } = s;
  const { count } = await db.task.deleteMany({
    where: { expiresAt: { lt: new Date() }, status: { in: ["SUCCEEDED", "FAILED", "CANCELED", "EXPIRED"] } },
  });
  if (count) log.info({ count }, "deleted expired tasks");
  // Claims left over once their task has ended: a queued task's (place-claim.ts), which no one releases, or one
  // whose release failed. The first identical call would delete it too (join-claim.ts); this bounds the rest.
  const left = await db.$executeRaw`DELETE FROM call_claims c WHERE c."taskId" IS NOT NULL
    AND NOT EXISTS (SELECT 1 FROM tasks t WHERE t.id = c."taskId" AND t.status IN ('PENDING', 'AWAITING_APPROVAL', 'RUNNING'))`;
  if (left) log.info({ count: left }, "deleted claims of ended tasks");
  return count;
}
