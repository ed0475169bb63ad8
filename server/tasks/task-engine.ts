// Durable tasks. A task row (the domain record) plus, for queued tasks, a graphile-worker job (leasing and
// dispatch over LISTEN/NOTIFY). Any gateway process may run any task; a task runs at most once unless its
// tool is read-only or idempotent:
//   - a runner claims a task with one UPDATE … WHERE status = 'PENDING' (a second claim finds nothing);
//   - each process holds a PostgreSQL advisory lock for its whole life, and records its runner id on the
//     tasks it runs; when a process dies its lock goes with its connection, and the sweeper of any other
//     process finds RUNNING tasks whose runner's lock is free: retryable ones go back to PENDING with a new
//     job, the others end FAILED `interrupted`; each graphile-worker worker has such a lock too, and the jobs of
//     dead ones (a task's locked but not yet claimed) are freed to run again (worker-locks.ts).
// A call still running after the threshold is adopted as a task where it runs (origin "threshold"); the
// same bookkeeping then applies.
import { untilTaskEnds } from "./until-task-ends";
import { randomUUID } from "node:crypto";
import { Logger as GraphileLogger, run, type Runner } from "graphile-worker";
import pg from "pg";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import type { RequestContext } from "../context";
import type { AuditWriter } from "../audit/audit-writer";
import type { Db, DbTx, Task } from "../db/client";
import type { ChangeBus } from "../events/change-bus";
import type { Logger } from "../logger";
import { executeUpstream } from "../pipeline/execute-upstream";
import type { ResolvedTool, TaskContext, ToolCall } from "../pipeline/types";
import type { Registry } from "../registry/create-registry";
import type { UpstreamPool } from "../upstream/upstream-pool";
import { NO_OUTBOUND_EXCEPTIONS, type OutboundPolicy } from "../net/outbound-url";
import { adoptTask } from "./adopt-task";
import { auditTransition } from "./audit-transition";
import { createCallClaims, type ClaimRef } from "./call-claims";
import { claimTask, promoteClaim, settleClaim } from "./claim-task";
import { writeUntilUp } from "../db/retry-until-up";
import { installTaskQueue } from "./install-queue";
import type { CLAIM_ORIGIN } from "./claim-origin";
import { cleanupTasks } from "./cleanup-tasks";
import { createAwaiting, releaseTask } from "./held-task";
import { runTaskJob } from "./run-task-job";
import { recoverRunner, sweepDeadRunners } from "./sweep-dead-runners";
import { taskWorkerPool } from "../db/connection-budget";
import { CLEANUP_JOB, DEFAULT_TASK_OPTIONS, expiryFrom, RUN_TASK_JOB, RUNNER_LOCK_CLASS, type RunningTask, type TaskOptions, type TaskScope } from "./task-scope";
import { trackTask } from "./track-task";
import { DELIVER_WEBHOOK_JOB, scheduleWebhookJob, sweepWebhooks, webhookJob } from "./webhook-jobs";
import { sessionSecretFor } from "./webhooks";
import { workerLocks } from "./worker-locks";

// Declared beside ToolCall (which carries it), so the pipeline needs nothing from the task engine.
export type { TaskContext } from "../pipeline/types";
// The engine's names, where the rest of the gateway has always imported them.
export { DEFAULT_TASK_OPTIONS, RUN_TASK_JOB, type Claim, type TaskOptions } from "./task-scope";

type TrackArgs = Parameters<typeof trackTask> extends [TaskScope, ...infer Rest] ? Rest : never;

/** The task engine of one gateway: each part is its own module (this folder), handed the same scope. */
export function createTaskEngine(deps: {
  db: Db;
  /** The gateway's audit writer: task transitions are recorded through it. */
  audit: AuditWriter;
  databaseUrl: string;
  /**
   * Where graphile-worker (LISTEN) and the liveness lock connect: a real session. Defaults to databaseUrl; set
   * when databaseUrl is a transaction pooler (then `transactionPooler` too).
   */
  sessionDatabaseUrl?: string | undefined;
  transactionPooler?: boolean | undefined;
  logger: Logger;
  bus: ChangeBus;
  registry: Registry;
  pool: UpstreamPool;
  options?: Partial<TaskOptions>;
  /** Jobs of other parts run hourly on the same queue (one process runs each: graphile's cron is shared). */
  hourly?: Record<string, () => Promise<unknown>>;
  /** Signs approval notifications to the approvers' webhook (deliveries whose event starts with "approval."). */
  approverWebhookSecret?: string | null | undefined;
  /** Hosts webhooks may reach although they are private or loopback; none by default. */
  outbound?: OutboundPolicy | undefined;
}) {
  const opts: TaskOptions = { ...DEFAULT_TASK_OPTIONS, ...deps.options };
  const log = deps.logger.child({ component: "tasks" });
  const firstRunnerId = `runner-${randomUUID()}`;
  const execute = executeUpstream(deps.pool);
  const running = new Map<string, RunningTask>();
  const claimsSettling = new Set<Promise<void>>();
  const settling = (work: Promise<void>, taskId: string) => {
    const p: Promise<void> = work
      .catch((err: unknown) => log.error({ err, taskId }, "settling a call's claim failed; the sweep deletes it once this process is gone"))
      .finally(() => claimsSettling.delete(p));
    claimsSettling.add(p);
  };
  let liveness: Promise<pg.Client> | undefined;
  let runner: Runner | undefined;
  /** Set by start(): graphile-worker installs its schema first, and add_job needs it. */
  let starting: Promise<void> | undefined;
  /** The last failure of a start that is still being tried: work that needs the workers fails with it, not waits. */
  let startFailure: Error | undefined;
  let sweepTimer: NodeJS.Timeout | undefined;
  let closed = false;
  /** Ends start()'s retries: a drain or close (which also aborts it) while the workers could not start yet. */
  const giveUp = new AbortController();
  /** A drain's stop of the workers, which close() waits for. */
  let draining: Promise<void> | undefined;
  const sessionUrl = deps.sessionDatabaseUrl ?? deps.databaseUrl;
  const callClaims = createCallClaims(deps.databaseUrl, log, { transactionPooler: deps.transactionPooler === true });
  const workers = workerLocks(() => live(), log);

  // A canceled task is aborted wherever it runs: the upstream request's signal sends notifications/cancelled.
  const unsubscribe = deps.bus.subscribe((e) => {
    if (e.kind === "task" && e.status === "CANCELED")
      running.get(e.taskId)?.controller.abort(new Error("task canceled"));
  });

  const s: TaskScope = { db: deps.db, audit: deps.audit, bus: deps.bus, log, opts, runnerId: firstRunnerId, running, live, started: () => (startFailure === undefined ? starting : Promise.reject(startFailure)), closed: () => closed, callClaims };

  /**
   * This process's advisory lock: held until the process (or its connection) dies. A lost connection (PostgreSQL
   * restarted) frees it, and other processes would then take this live process for dead and recover its tasks:
   * so it is taken again at once, and at every sweep tick until it is held.
   */
  let everLive = false;
  function live(): Promise<pg.Client> {
    if (liveness) return liveness;
    const attempt: Promise<pg.Client> = (async () => {
      const id = s.runnerId;
      const client = new pg.Client({ connectionString: sessionUrl, application_name: `portcullis ${id}` });
      client.on("error", (err) => {
        // The lock is gone with the session, and so is any certainty about what this runner's rows say: a write
        // of an outcome, a claim's drop or a job's step may have failed while the database was away. So this
        // process goes on as a new runner, and the old one's RUNNING tasks and claims are recovered by the sweep
        // (its own or another process's) as a dead runner's: retryable ones run again, the others end
        // `interrupted`, claims are deleted. What the old runner still finishes here no longer matches its row
        // (runnerId) and is not written over the recovery.
        if (liveness === attempt) {
          liveness = undefined;
          s.runnerId = `runner-${randomUUID()}`;
          log.error({ err, previousRunner: id, runner: s.runnerId }, "task liveness connection lost; going on as a new runner");
        }
        if (!closed) void live().catch(() => undefined);
      });
      try {
        await client.connect();
        await client.query("SELECT pg_advisory_lock($1::int, hashtext($2))", [RUNNER_LOCK_CLASS, id]);
        // And one per graphile-worker worker of this process, taken again on a new connection (worker-locks.ts).
        await workers.holdAll(client);
      } catch (err) {
        await client.end().catch(() => undefined);
        throw err;
      }
      everLive = true;
      return client;
    })();
    liveness = attempt;
    attempt.catch(() => {
      if (liveness === attempt) liveness = undefined;
    });
    return attempt;
  }

  const scheduleWebhook = (id: string, at: Date) => scheduleWebhookJob(deps.db, id, at);
  const sessionSecret = sessionSecretFor(deps.db);
  const secretFor = (d: Parameters<typeof sessionSecret>[0]) =>
    d.event.startsWith("approval.") ? Promise.resolve(deps.approverWebhookSecret ?? null) : sessionSecret(d);

  function graphileLogger() {
    return new GraphileLogger(() => (level, message, meta) => {
      if (String(level) === "error") log.error({ meta }, message);
      else if (String(level) === "warning") log.warn({ meta }, message);
      else log.debug({ meta }, message);
    });
  }

  /**
   * Starts the workers, and tries again while it fails (the database away at start): a process whose workers never
   * started would stay up and never be ready. Until a drain or close, which ends it quietly (it only throws once
   * they have begun, when a failure is the shutdown's, not the start's).
   */
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
    await live();
    // Before run(), which would install it too, but not in turn with other processes (install-queue.ts).
    await installTaskQueue(sessionUrl, graphileLogger());
    runner = await run({
      connectionString: sessionUrl,
      maxPoolSize: taskWorkerPool(opts.concurrency),
      concurrency: opts.concurrency,
      noHandleSignals: true,
      pollInterval: 1000,
      logger: graphileLogger(),
      events: workers.events,
      taskList: {
        [RUN_TASK_JOB]: runTaskJob(s, { registry: deps.registry, execute }),
        [CLEANUP_JOB]: async () => void (await cleanupTasks(s)),
        ...Object.fromEntries(Object.entries(deps.hourly ?? {}).map(([name, run]) => [name, async () => void (await run())])),
        [DELIVER_WEBHOOK_JOB]: webhookJob({
          db: deps.db,
          logger: log,
          secretFor: secretFor,
          schedule: scheduleWebhook,
          backoffMs: opts.webhookBackoffMs,
          outbound: deps.outbound ?? NO_OUTBOUND_EXCEPTIONS,
        }),
      },
      crontab: [`17 * * * * ${CLEANUP_JOB}`, ...Object.keys(deps.hourly ?? {}).map((name) => `23 * * * * ${name}`)].join("\n"),
    });
    const tick = () => {
      sweepTimer = setTimeout(() => {
        // Our own lock first (lost with a dropped connection), then the others'.
        void Promise.all([live().then(() => sweepDeadRunners(s)), sweepWebhooks(deps.db, scheduleWebhook)])
          .catch((err: unknown) => log.error({ err }, "task sweep failed"))
          .finally(() => {
            if (!closed) tick();
          });
      }, opts.sweepIntervalMs);
      sweepTimer.unref();
    };
    await sweepDeadRunners(s).catch((err: unknown) => log.error({ err }, "task sweep failed"));
    tick();
  }

  return {
    /** This process's runner id now (a new one after its liveness connection was lost). */
    get runnerId() {
      return s.runnerId;
    },
    options: opts,
    /** Starts this process's workers and sweeper (once; tried again while it fails, until a drain or close). */
    start(): Promise<void> {
      starting ??= startUntilUp();
      return starting;
    },
    claim: (call: ToolCall, tc: TaskContext, ctx: RequestContext, origin: "async" | "mcp_task" | "idempotent" | typeof CLAIM_ORIGIN, dedupeMs: number, replayOnly = false) =>
      claimTask(s, call, tc, ctx, origin, dedupeMs, replayOnly),
    /** Settles a claim answered in time, after the answer (claim-task.ts); close() waits for the settling ones. */
    settleClaim(claim: ClaimRef, tool: ResolvedTool, outcome: Promise<CallToolResult>): void {
      settling(settleClaim(s, claim, tool, outcome), claim.id);
    },
    promoteClaim: (claim: ClaimRef, requestId: string) => promoteClaim(s, claim, requestId),
    /** Deletes a promoted claim once its task has ended; close() waits for it too. */
    releaseClaim(claim: ClaimRef): void {
      settling(callClaims.release(claim), claim.id);
    },
    createAwaiting: (tx: DbTx, call: ToolCall, tc: TaskContext, ctx: RequestContext) => createAwaiting(s, tx, call, tc, ctx),
    release: releaseTask,
    /** When a task that finished at `finishedAt` is deleted by the retention job. */
    expiryFrom: (finishedAt: Date) => expiryFrom(opts, finishedAt),
    auditTransition: (t: Task, toolName: string, by?: RequestContext) => auditTransition(s, t, toolName, by),
    adopt: (call: ToolCall, tc: TaskContext, ctx: RequestContext, origin: string, startedAt: Date) => adoptTask(s, call, tc, ctx, origin, startedAt),
    track: (...args: TrackArgs) => trackTask(s, ...args),
    /** Whether this process still follows task `taskId`'s call (until its outcome is written, or left alone). */
    following: (taskId: string) => running.has(taskId),
    /** The task once it has ended (on any process), for a caller that cannot follow a task. */
    untilEnded: (taskId: string, signal: AbortSignal) => untilTaskEnds(s, taskId, signal),
    /** Recovers tasks of stopped processes now (the sweeper does it every sweepIntervalMs). */
    sweep: () => sweepDeadRunners(s),
    /** Deletes finished tasks past their retention now (a graphile cron job does it hourly). */
    cleanup: () => cleanupTasks(s),
    /**
     * The first step of a graceful stop: takes no new job, and resolves once the running tasks have finished or
     * `graceMs` has passed (close() then stops what is left and hands it back to the queue).
     */
    async drain(graceMs: number): Promise<void> {
      giveUp.abort();
      await starting?.catch(() => undefined);
      if (!runner) return;
      const stopped = runner.stop().catch((err: unknown) => log.warn({ err }, "stopping the task workers failed"));
      runner = undefined;
      await settlesWithin(stopped, graceMs);
      draining = stopped;
    },
    async close(): Promise<void> {
      closed = true;
      giveUp.abort();
      unsubscribe();
      for (const r of running.values()) r.controller.abort(new Error("gateway shutting down"));
      // Closed while start() was under way (Ctrl-C right after start): the runner and sweeper it makes must be
      // stopped too.
      await starting?.catch(() => undefined);
      if (sweepTimer) clearTimeout(sweepTimer);
      await runner?.stop().catch((err: unknown) => log.warn({ err }, "stopping the task workers failed"));
      // The aborts above end the running calls at once, and the workers' stop (graphile-worker's graceful
      // shutdown) then ends; but after the database had restarted under a running job, it was seen never to end,
      // which kept the process from exiting until it was killed. Waited for within a bound: what it would still
      // hand back, recoverRunner below does.
      if (draining && !(await settlesWithin(draining, WORKERS_STOP_BOUND_MS))) {
        log.warn({ waitedMs: WORKERS_STOP_BOUND_MS }, "the task workers did not stop; their tasks are handed back to the queue");
      }
      if (liveness) await liveness.then((c) => c.end()).catch(() => undefined);
      // A claim someone was handed must be finished with its outcome before the connections go, or the sweep
      // would run the call again for them.
      await Promise.all(claimsSettling);
      // What this process was still running goes back to the queue now (retryable ones; the others end
      // `interrupted`), not at another process's next sweep. Its lock is free since the liveness connection ended.
      if (everLive) {
        const handedBack = await recoverRunner(s, s.runnerId).catch((err: unknown) => {
          log.warn({ err }, "handing back this process's running tasks failed; another process's sweep will");
          return 0;
        });
        if (handedBack) log.warn({ handedBack }, "handed this process's running tasks back to the queue");
      }
      await callClaims.close().catch(() => undefined);
    },
  };
}

/** How long close() waits for the task workers to stop once their calls were aborted. */
const WORKERS_STOP_BOUND_MS = 5_000;

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

export type TaskEngine = ReturnType<typeof createTaskEngine>;
export type { ResolvedTool };
