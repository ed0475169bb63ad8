// A task's event (submitted, started, progress, …) and its job on the queue, each written through the caller's
// client or transaction.
import { toJson, type DbTx } from "../db/client";
import { RUN_TASK_JOB } from "./task-scope";

export async function taskEvent(db: DbTx, taskId: string, type: string, data?: Record<string, unknown>) {
  await db.taskEvent.create({ data: { taskId, type, ...(data && { data: toJson(data) }) } });
}

export async function enqueueTask(db: DbTx, taskId: string) {
  await db.$executeRaw`SELECT graphile_worker.add_job(${RUN_TASK_JOB}::text, json_build_object('taskId', ${taskId}::text), max_attempts := 25)`;
}
