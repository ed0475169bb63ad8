// Which graphile-worker workers are alive. A worker locks a job (its locked_by) before the engine claims the job's
// task (run-task-job.ts); a process killed in between leaves the task PENDING and its job locked for
// graphile-worker's four hours, where no sweep of RUNNING tasks finds it. So each process holds one advisory lock
// per worker on its liveness connection, beside its runner's, and the sweep frees the jobs of workers whose lock
// is free: their process is gone. A job freed this way runs again; its task's claim (status PENDING) still lets
// only one run through, so a job freed under a live worker (one whose lock is still being taken) does no harm.
import { EventEmitter } from "node:events";
import type { WorkerEvents } from "graphile-worker";
import type pg from "pg";
import type { Db } from "../db/client";
import type { Logger } from "../logger";
import { WORKER_LOCK_CLASS } from "./task-scope";

const hold = (client: pg.Client, workerIds: string[]) =>
  client.query("SELECT pg_advisory_lock($1::int, hashtext(w)) FROM unnest($2::text[]) AS w", [WORKER_LOCK_CLASS, workerIds]);

/**
 * The workers of this process: `events` goes to graphile-worker's run(), which announces each worker it creates;
 * each is locked on the liveness connection at once, and `holdAll` takes them all again on a new one.
 */
export function workerLocks(live: () => Promise<pg.Client>, log: Logger) {
  const ids = new Set<string>();
  const events = new EventEmitter() as WorkerEvents;
  // One query at a time on the connection (a pool creates its workers in one go).
  let taking: Promise<unknown> = Promise.resolve();
  events.on("worker:create", ({ worker }) => {
    ids.add(worker.workerId);
    taking = taking
      .then(() => live())
      .then((client) => hold(client, [worker.workerId]))
      .catch((err: unknown) => log.warn({ err, workerId: worker.workerId }, "taking a worker's liveness lock failed; it is taken again with the connection"));
  });
  return {
    events,
    /** Takes every worker's lock on `client` (a new liveness connection). */
    holdAll: async (client: pg.Client) => {
      if (ids.size) await hold(client, [...ids]);
    },
  };
}

/** Frees the jobs locked by workers whose lock is free (their process is gone); returns those workers. */
export async function unlockDeadWorkers(db: Db): Promise<string[]> {
  return db.$transaction(async (tx) => {
    const dead = await tx.$queryRaw<{ w: string }[]>`
      SELECT w FROM (SELECT DISTINCT locked_by AS w FROM graphile_worker.jobs WHERE locked_by IS NOT NULL) locked
      WHERE pg_try_advisory_xact_lock(${WORKER_LOCK_CLASS}::int, hashtext(w))`;
    const workers = dead.map((d) => d.w);
    if (workers.length) await tx.$executeRaw`SELECT graphile_worker.force_unlock_workers(${workers}::text[])`;
    return workers;
  });
}
