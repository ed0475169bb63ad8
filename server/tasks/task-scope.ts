// What the task engine's parts share: its options, this process's runner identity and advisory lock, the calls
// it follows, and whether it has started or closed. Built once by createTaskEngine (task-engine.ts).
import type pg from "pg";
import type { AuditWriter } from "../audit/audit-writer";
import type { Db, Task } from "../db/client";
import type { ChangeBus } from "../events/change-bus";
import type { Logger } from "../logger";
import { DEFAULT_WEBHOOK_BACKOFF_MS } from "./webhooks";
import type { CallClaims } from "./call-claims";

export type TaskOptions = {
  /** A call still running after this long is answered with a task id (0 disables the switch-over). */
  thresholdMs: number;
  /** Queued tasks one process runs at once. */
  concurrency: number;
  /** A task's stored result is cut to this size (pages of the output bound are served from it). */
  resultMaxBytes: number;
  /** Finished tasks (and their results) are deleted this long after they finish. */
  retentionDays: number;
  /** An identical call (same session, tool and arguments) within this window returns the running task. */
  dedupeWindowMs: number;
  /** How often each process looks for tasks of dead processes. */
  sweepIntervalMs: number;
  /** The retry-after hint the status tool gives the model. */
  pollSeconds: number;
  /** How many times a retryable task may start (the first run included) before it fails `interrupted`. */
  maxAttempts: number;
  /** Waits between webhook delivery attempts. */
  webhookBackoffMs: readonly number[];
};

export const DEFAULT_TASK_OPTIONS: TaskOptions = {
  thresholdMs: 1000,
  concurrency: 8,
  resultMaxBytes: 1024 * 1024,
  retentionDays: 7,
  dedupeWindowMs: 30_000,
  sweepIntervalMs: 5000,
  pollSeconds: 10,
  maxAttempts: 3,
  webhookBackoffMs: DEFAULT_WEBHOOK_BACKOFF_MS,
};

export const RUN_TASK_JOB = "portcullis_run_task";
export const CLEANUP_JOB = "portcullis_task_cleanup";
/** First key of the runners' advisory locks (the second is hashtext(runner id)). */
export const RUNNER_LOCK_CLASS = 0x70637472; // "pctr"
/** First key of the graphile-worker workers' advisory locks (the second is hashtext(worker id)); worker-locks.ts. */
export const WORKER_LOCK_CLASS = 0x70637477; // "pctw"

export type Claim = { task: Task; replay: boolean };

export type RunningTask = { controller: AbortController; taskId: string };

export type TaskScope = {
  db: Db;
  /** The gateway's audit writer (created once by createGateway). */
  audit: AuditWriter;
  bus: ChangeBus;
  log: Logger;
  opts: TaskOptions;
  /** Recorded on the tasks this process runs; its advisory lock is keyed by it. */
  runnerId: string;
  /** The calls this process follows, by task id: aborted when their task is canceled, and at close. */
  running: Map<string, RunningTask>;
  /** This process's advisory lock: held until the process (or its connection) dies. */
  live: () => Promise<pg.Client>;
  /**
   * Set by start(): graphile-worker installs its schema first, and add_job needs it. Rejects with the last failure
   * while a failed start is tried again, so a queued call fails rather than waits for a database that is away.
   */
  started: () => Promise<void> | undefined;
  closed: () => boolean;
  /** An ordinary call's claim and drop in one round trip each (call-claims.ts). */
  callClaims: CallClaims;
};

/** When a task that finished at `finishedAt` is deleted by the retention job. */
export const expiryFrom = (opts: TaskOptions, finishedAt: Date) => new Date(finishedAt.getTime() + opts.retentionDays * 86_400_000);
