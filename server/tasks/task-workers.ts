// The workers and the sweeper of one process: graphile-worker's runner (the jobs of the task queue, their hourly
// cron) and the sweep every sweepIntervalMs. Started once, and tried again while the database is away at start (a
// process whose workers never started would stay up and never be ready), until a drain or close ends it quietly.
// A drain takes no new job and waits for the running ones within its grace; close() stops what is left, within a
// bound (after the database had restarted under a running job, graphile-worker's stop was seen never to end).
import { Logger as GraphileLogger, run, type Runner, type TaskList, type WorkerEvents } from "graphile-worker";
import { taskWorkerPool } from "../db/connection-budget";
import { writeUntilUp } from "../db/retry-until-up";
import type { Logger } from "../logger";
import { installTaskQueue } from "./install-queue";
import type { TaskOptions } from "./task-scope";

/** How long close() waits for the workers to stop once their calls were aborted. */
const WORKERS_STOP_BOUND_MS = 5_000;

export type TaskWorkers = {
  /** Starts the workers and the sweeper (once). */
  start(): Promise<void>;
  /** What work that needs the workers waits for: their start, or the last failure of a start still being tried. */
  started(): Promise<void> | undefined;
  /** Takes no new job, and resolves once the running ones have finished or `graceMs` has passed. */
  drain(graceMs: number): Promise<void>;
  /** Stops the sweeper and the workers (what a drain left running is handed back by the caller). */
  close(): Promise<void>;
};

export function taskWorkers(deps: {
  sessionUrl: string;
  opts: Pick<TaskOptions, "concurrency" | "sweepIntervalMs">;
  log: Logger;
  /** The runner lock, held before the workers take a job (runner-liveness.ts). */
  live: () => Promise<unknown>;
  events: WorkerEvents;
  taskList: TaskList;
  crontab: string;
  /** One round of the sweep; the first runs once the workers have started, then one every sweepIntervalMs. */
  sweep: (first: boolean) => Promise<unknown>;
}): TaskWorkers {
  const { log, opts } = deps;
  let runner: Runner | undefined;
  let starting: Promise<void> | undefined;
  let startFailure: Error | undefined;
  let sweepTimer: NodeJS.Timeout | undefined;
  let closed = false;
  /** Ends start()'s retries: a drain or close while the workers could not start yet. */
  const giveUp = new AbortController();
  /** A drain's stop of the workers, which close() waits for. */
  let draining: Promise<void> | undefined;

  const graphileLogger = () =>
    new GraphileLogger(() => (level, message, meta) => {
      if (String(level) === "error") log.error({ meta }, message);
      else if (String(level) === "warning") log.warn({ meta }, message);
      else log.debug({ meta }, message);
    });

  async function startUntilUp(): Promise<void> {
    await writeUntilUp(startWorkers, {
      closed: () => giveUp.signal.aborted,
      retryable: () => true,
      onFailure: (err, attempt, retryInMs) => {
        startFailure = err instanceof Error ? err : new Error(String(err));
        log.error({ err, attempt, retryInMs }, "starting the task workers failed; trying again");
      },
      signal: giveUp.signal,
    }).catch(() => undefined);
    startFailure = undefined;
  }

  async function startWorkers(): Promise<void> {
    if (closed) return;
    await deps.live();
    // Before run(), which would install it too, but not in turn with other processes (install-queue.ts).
    await installTaskQueue(deps.sessionUrl, graphileLogger());
    runner = await run({
      connectionString: deps.sessionUrl,
      maxPoolSize: taskWorkerPool(opts.concurrency),
      concurrency: opts.concurrency,
      noHandleSignals: true,
      pollInterval: 1000,
      logger: graphileLogger(),
      events: deps.events,
      taskList: deps.taskList,
      crontab: deps.crontab,
    });
    const tick = () => {
      sweepTimer = setTimeout(() => {
        void deps
          .sweep(false)
          .catch((err: unknown) => log.error({ err }, "task sweep failed"))
          .finally(() => {
            if (!closed) tick();
          });
      }, opts.sweepIntervalMs);
      sweepTimer.unref();
    };
    await deps.sweep(true).catch((err: unknown) => log.error({ err }, "task sweep failed"));
    tick();
  }

  return {
    start() {
      starting ??= startUntilUp();
      return starting;
    },
    started: () => (startFailure === undefined ? starting : Promise.reject(startFailure)),
    async drain(graceMs) {
      giveUp.abort();
      await starting?.catch(() => undefined);
      if (!runner) return;
      const stopped = runner.stop().catch((err: unknown) => log.warn({ err }, "stopping the task workers failed"));
      runner = undefined;
      await settlesWithin(stopped, graceMs);
      draining = stopped;
    },
    async close() {
      closed = true;
      giveUp.abort();
      // Closed while start() was under way (Ctrl-C right after start): the runner and sweeper it makes must be
      // stopped too.
      await starting?.catch(() => undefined);
      if (sweepTimer) clearTimeout(sweepTimer);
      await runner?.stop().catch((err: unknown) => log.warn({ err }, "stopping the task workers failed"));
      // The calls were aborted before, so the workers' stop (graphile-worker's graceful shutdown) then ends; waited
      // for within a bound all the same: what it would still hand back, the caller hands back itself.
      if (draining && !(await settlesWithin(draining, WORKERS_STOP_BOUND_MS))) {
        log.warn({ waitedMs: WORKERS_STOP_BOUND_MS }, "the task workers did not stop; their tasks are handed back to the queue");
      }
    },
  };
}

/** Whether `promise` settles within `ms` (drain's grace period, close()'s bound). */
async function settlesWithin(promise: Promise<unknown>, ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<false>((resolve) => (timer = setTimeout(() => resolve(false), ms)));
  try {
    return await Promise.race([promise.then(() => true, () => true), late]);
  } finally {
    clearTimeout(timer);
  }
}
