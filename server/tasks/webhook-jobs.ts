// Webhook deliveries on the tasks' job queue (graphile-worker): one job per attempt, added in SQL so the first
// one can commit in the transaction that finishes the task, next to its delivery row; and a sweep that re-adds
// deliveries whose job was lost. A job key per delivery keeps it to one queued job however often it is added.
import type { Task as GraphileTask } from "graphile-worker";
import type { Db, DbTx } from "../db/client";
import type { Task } from "../db/client";
import { deliverWebhook, enqueueTaskWebhook, type WebhookDeps } from "./webhooks";

export const DELIVER_WEBHOOK_JOB = "portcullis_deliver_webhook";
/** A PENDING or RETRYING delivery this long past due has lost its job. */
const OVERDUE_MS = 60_000;

/** Queues the attempt of `deliveryId` at `runAt` (graphile-worker's add_job; its schema must exist). */
export async function scheduleWebhookJob(db: DbTx, deliveryId: string, runAt: Date = new Date()): Promise<void> {
  await db.$executeRaw`SELECT graphile_worker.add_job(
    ${DELIVER_WEBHOOK_JOB}::text, json_build_object('deliveryId', ${deliveryId}::text),
    run_at := ${runAt}::timestamptz, max_attempts := 3, job_key := ${`webhook:${deliveryId}`}::text)`;
}

/** The job's handler for the runner's taskList. Retries are the delivery's own; the job retries only a crash. */
export function webhookJob(deps: WebhookDeps): GraphileTask {
  return async (payload) => {
    const deliveryId = (payload as { deliveryId?: unknown } | null)?.deliveryId;
    if (typeof deliveryId !== "string") throw new Error(`${DELIVER_WEBHOOK_JOB}: payload without a deliveryId`);
    await deliverWebhook(deps, deliveryId);
  };
}

/**
 * Re-queues deliveries that should have been attempted by now: overdue PENDING/RETRYING rows (their job was
 * lost) and SENDING rows whose sender died (the lease ran out). Returns how many were re-queued.
 */
export async function sweepWebhooks(db: Db, schedule: (deliveryId: string, runAt: Date) => Promise<void>, now = new Date()): Promise<number> {
  const rows = await db.webhookDelivery.findMany({
    where: {
      OR: [
        { status: { in: ["PENDING", "RETRYING"] }, nextAttemptAt: { lt: new Date(now.getTime() - OVERDUE_MS) } },
        { status: "SENDING", nextAttemptAt: { lt: now } },
      ],
    },
    select: { id: true },
    orderBy: { nextAttemptAt: "asc" },
    take: 100,
  });
  for (const r of rows) await schedule(r.id, now);
  return rows.length;
}

/** In the transaction that ends a task (finished, canceled, recovered): its session's webhook, if it has one. */
export async function webhookOnFinish(tx: DbTx, task: Task): Promise<void> {
  const id = await enqueueTaskWebhook(tx, task);
  if (id) await scheduleWebhookJob(tx, id);
}
