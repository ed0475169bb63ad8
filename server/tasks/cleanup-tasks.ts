// Retention: finished tasks (with their events and deliveries) are deleted once past expiresAt.
import type { TaskScope } from "./task-scope";

/** Deletes finished tasks past their retention (events and deliveries go with them). */
export async function cleanupTasks(s: TaskScope): Promise<number> {
  const { db, log } = s;
  const { count } = await db.task.deleteMany({
    where: { expiresAt: { lt: new Date() }, status: { in: ["SUCCEEDED", "FAILED", "CANCELED", "EXPIRED"] } },
  });
  if (count) log.info({ count }, "deleted expired tasks");
  return count;
}
