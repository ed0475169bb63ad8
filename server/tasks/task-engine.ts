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
import type { CLAIM_ORIGIN } from "./claim-origin";
import { cleanupTasks } from "./cleanup-tasks";
import { createAwaiting, releaseTask } from "./held-task";
import { runTaskJob } from "./run-task-job";
import { runnerLiveness } from "./runner-liveness";
import { recoverRunner, sweepDeadRunners } from "./sweep-dead-runners";
import { CLEANUP_JOB, DEFAULT_TASK_OPTIONS, expiryFrom, RUN_TASK_JOB, type RunningTask, type TaskOptions, type TaskScope } from "./task-scope";
import { trackTask } from "./track-task";
import { taskWorkers } from "./task-workers";
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
  const execute = executeUpstream(deps.pool);
  const running = new Map<string, RunningTask>();
  const claimsSettling = new Set<Promise<void>>();
  const settling = (work: Promise<void>, taskId: string) => {
    const p: Promise<void> = work
      .catch((err: unknown) => log.error({ err, taskId }, "settling a call's claim failed; the sweep deletes it once this process is gone"))
      .finally(() => claimsSettling.delete(p));
    claimsSettling.add(p);
  };
  let closed = false;
  const sessionUrl = deps.sessionDatabaseUrl ?? deps.databaseUrl;
  const callClaims = createCallClaims(deps.databaseUrl, log, { transactionPooler: deps.transactionPooler === true });
  // This process's runner lock, and its workers' beside it (runner-liveness.ts, worker-locks.ts).
  const liveness = runnerLiveness({ sessionUrl, holdAlso: (client) => locks.holdAll(client), closed: () => closed, log });
  const locks = workerLocks(() => liveness.live(), log);
  const live = () => liveness.live();

  // A canceled task is aborted wherever it runs: the upstream request's signal sends notifications/cancelled.
  const unsubscribe = deps.bus.subscribe((e) => {
    if (e.kind === "task" && e.status === "CANCELED")
      running.get(e.taskId)?.controller.abort(new Error("task canceled"));
  });

  const s: TaskScope = {
    db: deps.db,
    audit: deps.audit,
    bus: deps.bus,
    log,
    opts,
    // A new one once the liveness connection was lost (runner-liveness.ts).
    get runnerId() {
      return liveness.runnerId();
    },
    running,
    live,
    started: () => queueWorkers.started(),
    closed: () => closed,
    callClaims,
  };

  const scheduleWebhook = (id: string, at: Date) => scheduleWebhookJob(deps.db, id, at);
  const sessionSecret = sessionSecretFor(deps.db);
  const secretFor = (d: Parameters<typeof sessionSecret>[0]) =>
    d.event.startsWith("approval.") ? Promise.resolve(deps.approverWebhookSecret ?? null) : sessionSecret(d);

  // The workers and the sweeper (task-workers.ts), started by start() and given the jobs of the queue.
  const queueWorkers = taskWorkers({
    sessionUrl,
    opts,
    log,
    live,
    events: locks.events,
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
    // The first round only recovers dead runners; later ones take our own lock first (lost with a dropped
    // connection), then recover the others' and reschedule the webhooks due.
    sweep: (first) => (first ? sweepDeadRunners(s) : Promise.all([live().then(() => sweepDeadRunners(s)), sweepWebhooks(deps.db, scheduleWebhook)])),
  });

  return {
    /** This process's runner id now (a new one after its liveness connection was lost). */
    get runnerId() {
      return s.runnerId;
    },
    options: opts,
    /** Starts this process's workers and sweeper (once; tried again while it fails, until a drain or close). */
    start: () => queueWorkers.start(),
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
    drain: (graceMs: number) => queueWorkers.drain(graceMs),
    async close(): Promise<void> {
      closed = true;
      unsubscribe();
      for (const r of running.values()) r.controller.abort(new Error("gateway shutting down"));
      // The aborts end the running calls at once, so the workers' stop ends; what it would still hand back,
      // recoverRunner below does.
      await queueWorkers.close();
      await liveness.end();
      // A claim someone was handed must be finished with its outcome before the connections go, or the sweep
      // would run the call again for them.
      await Promise.all(claimsSettling);
      // What this process was still running goes back to the queue now (retryable ones; the others end
      // `interrupted`), not at another process's next sweep. Its lock is free since the liveness connection ended.
      if (liveness.everLive()) {
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

export type TaskEngine = ReturnType<typeof createTaskEngine>;
export type { ResolvedTool };
