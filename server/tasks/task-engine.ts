// Durable tasks. A task row (the domain record) plus, for queued tasks, a graphile-worker job (leasing and
// dispatch over LISTEN/NOTIFY). Any gateway process may run any task; a task runs at most once unless its
// tool is read-only or idempotent:
//   - a runner claims a task with one UPDATE … WHERE status = 'PENDING' (a second claim finds nothing);
//   - each process holds a PostgreSQL advisory lock for its whole life, and records its runner id on the
//     tasks it runs; when a process dies its lock goes with its connection, and the sweeper of any other
//     process finds RUNNING tasks whose runner's lock is free: retryable ones go back to PENDING with a new
//     job, the others end FAILED `interrupted`.
// A call still running after the threshold is adopted as a task where it runs (origin "threshold"); the
// same bookkeeping then applies.
import { randomUUID } from "node:crypto";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { Logger as GraphileLogger, run, type Runner, type Task as GraphileTask } from "graphile-worker";
import pg from "pg";
import type { TTaskStatus } from "../../lib/task-schemas";
import { auditWriterFor } from "../audit/audit-writer";
import type { RequestContext } from "../context";
import { toJson, type Db, type DbTx, type Task } from "../db/client";
import { storableText } from "../db/storable";
import type { ChangeBus } from "../events/change-bus";
import { publishChange } from "../events/change-bus";
import type { Logger } from "../logger";
import { boundResult } from "../pipeline/bound-output";
import { executeUpstream } from "../pipeline/execute-upstream";
import { errorCodeOf } from "../pipeline/tool-error";
import type { ResolvedTool, ToolCall } from "../pipeline/types";
import type { Registry } from "../registry/create-registry";
import type { UpstreamPool } from "../upstream/upstream-pool";
import { NO_OUTBOUND_EXCEPTIONS, type OutboundPolicy } from "../net/outbound-url";
import { CLAIM_ORIGIN } from "./claim-origin";
import { hashArguments } from "./hash-arguments";
import { createCallClaims } from "./call-claims";
import { lockClaim } from "./lock-claim";
import { reauthorizeTask } from "./reauthorize-task";
import { revokeTask } from "./revoke-task";
import { DELIVER_WEBHOOK_JOB, scheduleWebhookJob, sweepWebhooks, webhookJob, webhookOnFinish } from "./webhook-jobs";
import { DEFAULT_WEBHOOK_BACKOFF_MS, sessionSecretFor } from "./webhooks";

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

/** Who submitted a call that may become a task (set by the MCP endpoints for agent sessions). */
export type TaskContext = {
  ownerId: string;
  agentSessionId: string;
  endpoint: string;
  idempotencyKey?: string | undefined;
  /** The client asked for an MCP task (protocol 2025-11-25 `params.task`). */
  mcpTask?: { ttl?: number | null | undefined } | undefined;
  /**
   * A call from inside a code-mode program: it runs to its end where it was made, never becomes a task and is
   * never answered from an earlier identical call; the context only lets a HIGH-tier call be held for a person.
   */
  inline?: boolean | undefined;
};

export const RUN_TASK_JOB = "portcullis_run_task";
const CLEANUP_JOB = "portcullis_task_cleanup";
/** First key of the runners' advisory locks (the second is hashtext(runner id)). */
const RUNNER_LOCK_CLASS = 0x70637472; // "pctr"
const PROGRESS_EVERY_MS = 500;

/** Statuses a replay may be answered with. Not AWAITING_APPROVAL: a held task is not running, and a call that
 *  reaches the task switch has passed the approval gate (its grant would be used up for nothing). */
const REPLAYABLE = ["PENDING", "RUNNING", "SUCCEEDED"] as const;

export type Claim = { task: Task; replay: boolean };

type Running = { controller: AbortController; taskId: string };

export function createTaskEngine(deps: {
  db: Db;
  databaseUrl: string;
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
  const runnerId = `runner-${randomUUID()}`;
  const execute = executeUpstream(deps.pool);
  const running = new Map<string, Running>();
  let liveness: Promise<pg.Client> | undefined;
  let runner: Runner | undefined;
  /** Set by start(): graphile-worker installs its schema first, and add_job needs it. */
  let starting: Promise<void> | undefined;
  let sweepTimer: NodeJS.Timeout | undefined;
  let closed = false;
  const callClaims = createCallClaims(deps.databaseUrl, log);

  // A canceled task is aborted wherever it runs: the upstream request's signal sends notifications/cancelled.
  const unsubscribe = deps.bus.subscribe((e) => {
    if (e.kind === "task" && e.status === "CANCELED")
      running.get(e.taskId)?.controller.abort(new Error("task canceled"));
  });

  /** When a task that finished at `finishedAt` is deleted by the retention job. */
  const expiryFrom = (finishedAt: Date) => new Date(finishedAt.getTime() + opts.retentionDays * 86_400_000);

  /** This process's advisory lock: held until the process (or its connection) dies. */
  function live(): Promise<pg.Client> {
    liveness ??= (async () => {
      const client = new pg.Client({ connectionString: deps.databaseUrl, application_name: `portcullis ${runnerId}` });
      client.on("error", (err) => log.error({ err }, "task liveness connection failed"));
      await client.connect();
      await client.query("SELECT pg_advisory_lock($1::int, hashtext($2))", [RUNNER_LOCK_CLASS, runnerId]);
      return client;
    })();
    return liveness;
  }

  async function event(db: DbTx, taskId: string, type: string, data?: Record<string, unknown>) {
    await db.taskEvent.create({ data: { taskId, type, ...(data && { data: toJson(data) }) } });
  }

  async function enqueue(db: DbTx, taskId: string) {
    await db.$executeRaw`SELECT graphile_worker.add_job(${RUN_TASK_JOB}::text, json_build_object('taskId', ${taskId}::text), max_attempts := 25)`;
  }

  function taskRow(
    call: ToolCall,
    tc: TaskContext,
    ctx: RequestContext,
    origin: string,
    status: "PENDING" | "RUNNING" | "AWAITING_APPROVAL",
    startedAt?: Date,
  ) {
    // created_at is when the call was made, started_at when it began running, both on this clock (the dedupe
    // window reads created_at against it too). A call that runs here was made when it started: an adopted one
    // (after the threshold) is dated by its start, not by its adoption, so created_at <= started_at always.
    const createdAt = startedAt ?? new Date();
    return {
      status,
      createdAt,
      origin,
      ownerId: tc.ownerId,
      agentSessionId: tc.agentSessionId,
      toolId: call.tool.id,
      toolName: call.tool.gatewayName,
      arguments: toJson(call.arguments),
      argumentsHash: hashArguments(call.arguments),
      idempotencyKey: tc.idempotencyKey ?? null,
      retryable: call.tool.retryable,
      maxAttempts: call.tool.retryable ? opts.maxAttempts : 1,
      requestId: ctx.requestId,
      endpoint: tc.endpoint,
      ...(status === "RUNNING" && { runnerId, startedAt: createdAt, attempts: 1 }),
    };
  }

  /**
   * A held call (HIGH tier): AWAITING_APPROVAL, no job yet. In the caller's transaction, next to its approval
   * request; release() queues it once approved.
   */
  async function createAwaiting(tx: DbTx, call: ToolCall, tc: TaskContext, ctx: RequestContext): Promise<Task> {
    const t = await tx.task.create({ data: taskRow(call, tc, ctx, "approval", "AWAITING_APPROVAL") });
    await event(tx, t.id, "submitted", { origin: "approval", requestId: ctx.requestId });
    await publishChange(tx, { kind: "task", taskId: t.id, status: "AWAITING_APPROVAL" });
    return t;
  }

  /** An approved task: AWAITING_APPROVAL → PENDING plus its job, in the approver's transaction. False if it was not waiting. */
  async function release(tx: DbTx, taskId: string, data: Record<string, unknown>): Promise<boolean> {
    const changed = await tx.task.updateMany({ where: { id: taskId, status: "AWAITING_APPROVAL" }, data: { status: "PENDING" } });
    if (!changed.count) return false;
    await event(tx, taskId, "approved", data);
    await enqueue(tx, taskId);
    await publishChange(tx, { kind: "task", taskId, status: "PENDING" });
    return true;
  }

  /** Records a call already running in this process as a RUNNING task of this runner. */
  async function adopt(
    call: ToolCall,
    tc: TaskContext,
    ctx: RequestContext,
    origin: string,
    startedAt: Date,
  ): Promise<Task> {
    await live();
    const task = await deps.db.$transaction(async (tx) => {
      const t = await tx.task.create({ data: taskRow(call, tc, ctx, origin, "RUNNING", startedAt) });
      await event(tx, t.id, "submitted", { origin, requestId: ctx.requestId });
      await event(tx, t.id, "started", { attempt: 1, runner: runnerId, inline: true });
      await publishChange(tx, { kind: "task", taskId: t.id, status: "RUNNING" });
      return t;
    });
    await auditTransition(task, task.toolName);
    return task;
  }

  /** The first task of a replayed call: the same idempotency key, or (without a key) the same call still fresh. */
  async function findReplay(db: DbTx, call: ToolCall, tc: TaskContext, dedupeMs: number): Promise<Task | null> {
    const agentSessionId = tc.agentSessionId;
    if (tc.idempotencyKey) return db.task.findUnique({ where: { agentSessionId_idempotencyKey: { agentSessionId, idempotencyKey: tc.idempotencyKey } } });
    if (dedupeMs <= 0) return null;
    return db.task.findFirst({
      where: {
        agentSessionId,
        argumentsHash: hashArguments(call.arguments),
        toolName: call.tool.gatewayName,
        createdAt: { gte: new Date(Date.now() - dedupeMs) },
        status: { in: [...REPLAYABLE] },
      },
      orderBy: { createdAt: "desc" },
    });
  }

  /** A claim row becomes a task (someone waits on it, or it outlived the threshold). Null if it already was one or is gone. */
  async function promote(tx: DbTx, taskId: string, requestId: string): Promise<Task | null> {
    const changed = await tx.task.updateMany({ where: { id: taskId, origin: CLAIM_ORIGIN }, data: { origin: "threshold" } });
    if (!changed.count) return null;
    const t = await tx.task.findUniqueOrThrow({ where: { id: taskId } });
    await event(tx, taskId, "submitted", { origin: "threshold", requestId });
    await event(tx, taskId, "started", { attempt: 1, runner: t.runnerId, inline: true });
    await publishChange(tx, { kind: "task", taskId, status: t.status });
    return t;
  }

  /**
   * Claims a call before anything of it leaves for the upstream, under a transaction-scoped advisory lock on
   * its idempotency key (or on its session, tool and arguments): a racing call, on any process, waits for the
   * lock, then finds this row and is answered with it. An async or MCP-task origin inserts the task PENDING
   * with its job; "idempotent" a RUNNING task of this runner; CLAIM_ORIGIN a RUNNING claim (see there).
   * `dedupeMs` 0 looks for no earlier identical call (only the key, if any). `replayOnly` (a call that may only
   * be answered with its first task: it passed the approval gate as a keyed retry) claims nothing: null if
   * there is no first task any more.
   */
  async function claim(call: ToolCall, tc: TaskContext, ctx: RequestContext, origin: "async" | "mcp_task" | "idempotent" | typeof CLAIM_ORIGIN, dedupeMs: number, replayOnly = false): Promise<Claim | null> {
    const queued = origin === "async" || origin === "mcp_task";
    if (queued) await starting;
    else await live();
    // An ordinary call's claim, on every call: one round trip (call-claims.ts); an earlier identical call found
    // there is answered through the full path below.
    if (origin === CLAIM_ORIGIN && !replayOnly && !tc.idempotencyKey) {
      const fast = await callClaims.claim({ ...taskRow(call, tc, ctx, origin, "RUNNING"), runnerId }, dedupeMs);
      if (fast) return { task: fast, replay: false };
    }
    const lockParts = tc.idempotencyKey ? ["key", tc.agentSessionId, tc.idempotencyKey] : ["call", tc.agentSessionId, call.tool.gatewayName, hashArguments(call.arguments)];
    const claimed = await deps.db.$transaction(async (tx): Promise<(Claim & { audit: boolean }) | null> => {
      await lockClaim(tx, lockParts);
      const first = await findReplay(tx, call, tc, dedupeMs);
      if (first && first.origin !== CLAIM_ORIGIN) return { task: first, replay: true, audit: false };
      if (first) {
        const promoted = await promote(tx, first.id, ctx.requestId);
        if (promoted) return { task: promoted, replay: true, audit: true };
        const still = await tx.task.findUnique({ where: { id: first.id } });
        if (still) return { task: still, replay: true, audit: false };
        // Answered in time and dropped meanwhile: this call is a new run.
      }
      if (replayOnly) return null;
      const t = await tx.task.create({ data: taskRow(call, tc, ctx, origin, queued ? "PENDING" : "RUNNING") });
      if (origin === CLAIM_ORIGIN) return { task: t, replay: false, audit: false };
      await event(tx, t.id, "submitted", { origin, requestId: ctx.requestId });
      if (queued) await enqueue(tx, t.id);
      else await event(tx, t.id, "started", { attempt: 1, runner: runnerId, inline: true });
      await publishChange(tx, { kind: "task", taskId: t.id, status: t.status });
      return { task: t, replay: false, audit: !queued };
    });
    if (!claimed) return null;
    if (claimed.audit) await auditTransition(claimed.task, claimed.task.toolName);
    return { task: claimed.task, replay: claimed.replay };
  }

  /** A claim answered in time: deleted, unless it became a task meanwhile (then it is tracked like one). */
  async function dropClaim(taskId: string): Promise<boolean> {
    return callClaims.drop(taskId);
  }

  /** A claim still running after the threshold becomes a task (if nobody promoted it first). */
  async function promoteClaim(taskId: string, requestId: string): Promise<Task> {
    const promoted = await deps.db.$transaction((tx) => promote(tx, taskId, requestId));
    if (promoted) await auditTransition(promoted, promoted.toolName);
    return promoted ?? deps.db.task.findUniqueOrThrow({ where: { id: taskId } });
  }

  /** Throttled progress: the row keeps the latest; an event is kept at most every 500 ms. */
  function progressRecorder(taskId: string) {
    let last = 0;
    let pending: { progress: number; total?: number | undefined; message?: string | undefined } | undefined;
    let timer: NodeJS.Timeout | undefined;
    // One write at a time, in order: a late write of an older value must not overwrite a newer one.
    let chain = Promise.resolve();
    const flush = () => (chain = chain.then(write));
    const write = async () => {
      timer = undefined;
      const p = pending;
      pending = undefined;
      if (!p) return;
      last = Date.now();
      try {
        const changed = await deps.db.task.updateMany({
          where: { id: taskId, status: "RUNNING" },
          data: {
            progress: p.progress,
            progressTotal: p.total ?? null,
            progressMessage: p.message?.slice(0, 500) ?? null,
          },
        });
        if (changed.count) {
          await event(deps.db, taskId, "progress", {
            progress: p.progress,
            total: p.total ?? null,
            message: p.message ?? null,
          });
          await deps.bus.publish({ kind: "task", taskId, status: "RUNNING" });
        }
      } catch (err) {
        log.warn({ err, taskId }, "recording task progress failed");
      }
    };
    return {
      record(p: { progress: number; total?: number | undefined; message?: string | undefined }) {
        pending = p;
        if (timer) return;
        timer = setTimeout(() => void flush(), Math.max(0, last + PROGRESS_EVERY_MS - Date.now()));
      },
      async done() {
        if (timer) clearTimeout(timer);
        await flush();
      },
    };
  }

  /** Writes the outcome of a task this runner ran; a task canceled meanwhile keeps CANCELED. */
  async function finish(
    taskId: string,
    outcome: { result: CallToolResult; bytes: number; truncated: boolean } | { error: unknown },
    toolName: string,
  ) {
    // Shutting down aborts the calls; what they answer then is not their outcome. The task stays RUNNING and
    // is recovered once this process's lock is gone (queued again if retryable, else `interrupted`).
    if (closed) return null;
    const now = new Date();
    const expiresAt = expiryFrom(now);
    let status: TTaskStatus;
    let data: Record<string, unknown>;
    if ("result" in outcome) {
      const failed = outcome.result.isError === true;
      status = failed ? "FAILED" : "SUCCEEDED";
      const text = (outcome.result.content ?? []).find((c) => c.type === "text")?.text;
      // The upstream's own words, made storable: a NUL would fail the task's final write and strand it RUNNING.
      const message = failed ? (text === undefined ? "The tool reported an error." : storableText(text, 2000).text) : null;
      data = {
        status,
        result: toJson(outcome.result),
        resultBytes: outcome.bytes,
        resultTruncated: outcome.truncated,
        errorCode: failed ? (errorCodeOf(outcome.result) ?? "tool_error") : null,
        errorMessage: message,
      };
    } else {
      status = "FAILED";
      const message = outcome.error instanceof Error ? outcome.error.message : String(outcome.error);
      data = { status, errorCode: "internal", errorMessage: storableText(message, 2000).text };
    }
    const row = await deps.db.$transaction(async (tx) => {
      const changed = await tx.task.updateMany({
        where: { id: taskId, status: "RUNNING", runnerId },
        data: { ...data, finishedAt: now, expiresAt, runnerId: null },
      });
      if (changed.count === 0) return null;
      const t = await tx.task.findUniqueOrThrow({ where: { id: taskId } });
      await event(tx, taskId, status === "SUCCEEDED" ? "succeeded" : "failed", {
        errorCode: t.errorCode,
        resultBytes: t.resultBytes,
        truncated: t.resultTruncated,
      });
      await webhookOnFinish(tx, t);
      await publishChange(tx, { kind: "task", taskId, status });
      return t;
    });
    if (row) await auditTransition(row, toolName);
    return row;
  }

  /** One audit event per transition (started, and each way a task ends), linked to the submitting request. */
  /** `by`: who caused the transition (an approver's rejection), its actor; the task's owner otherwise. */
  async function auditTransition(t: Task, toolName: string, by?: RequestContext) {
    const durationMs = t.startedAt && t.finishedAt ? t.finishedAt.getTime() - t.startedAt.getTime() : null;
    try {
      // The event names the agent, as its call's event does (the row keeps only the session).
      const agent = t.agentSessionId ? await deps.db.agentSession.findUnique({ where: { id: t.agentSessionId }, select: { agentId: true } }) : null;
      await auditWriterFor(deps.db).write({
        requestId: t.requestId,
        action: t.status === "RUNNING" ? "task.started" : `task.${t.status.toLowerCase()}`,
        category: "gateway",
        actorType: by?.actor.type ?? "user",
        userId: by ? (by.actor.type === "user" ? by.actor.userId : null) : t.ownerId,
        ip: by?.ip ?? null,
        endpoint: t.endpoint,
        serverSlug: toolName.split("__")[0] ?? null,
        toolName,
        agentId: agent?.agentId ?? null,
        sessionId: t.agentSessionId,
        targetType: "task",
        taskId: t.id,
        details: { taskId: t.id, attempts: t.attempts, origin: t.origin },
        arguments: t.arguments ?? {},
        decision: "allow",
        ruleId: null,
        reason: t.errorMessage?.slice(0, 2000) ?? null,
        status: t.status === "SUCCEEDED" || t.status === "RUNNING" ? "ok" : "error",
        errorCode: t.errorCode,
        durationMs,
        resultBytes: t.resultBytes,
        truncated: t.resultTruncated,
        upstreamVersion: null,
      });
    } catch (err) {
      log.error({ err, taskId: t.id }, "audit of a task transition failed");
    }
  }

  /**
   * Follows a call already running here as task `taskId`: registers it for cancellation, records progress
   * (through the sink it is given), bounds and stores the result.
   */
  async function track(
    taskId: string,
    tool: ResolvedTool,
    exec: Promise<CallToolResult>,
    controller: AbortController,
    progressSink: (
      fn: ((p: { progress: number; total?: number | undefined; message?: string | undefined }) => void) | undefined,
    ) => void,
  ): Promise<Task | null> {
    running.set(taskId, { controller, taskId });
    // A cancel that landed between the row's insert and this registration must still stop the call.
    const now = await deps.db.task.findUnique({ where: { id: taskId }, select: { status: true } });
    if (now?.status === "CANCELED") controller.abort(new Error("task canceled"));
    const progress = progressRecorder(taskId);
    progressSink((p) => progress.record(p));
    try {
      const raw = await exec;
      await progress.done();
      return await finish(taskId, boundResult(raw, opts.resultMaxBytes, tool), tool.gatewayName);
    } catch (err) {
      await progress.done();
      return await finish(taskId, { error: err }, tool.gatewayName);
    } finally {
      progressSink(undefined);
      running.delete(taskId);
    }
  }

  /** The graphile-worker job: claim the task (only a PENDING one), rebuild the call, run it. */
  const runTaskJob: GraphileTask = async (payload, helpers) => {
    const taskId = (payload as { taskId?: unknown }).taskId;
    if (typeof taskId !== "string") return;
    await live();
    const claimed = await deps.db.task.updateMany({
      where: { id: taskId, status: "PENDING" },
      data: {
        status: "RUNNING",
        runnerId,
        workerId: helpers.job.locked_by,
        jobId: String(helpers.job.id),
        startedAt: new Date(),
        attempts: { increment: 1 },
      },
    });
    if (claimed.count === 0) return; // canceled, already claimed, or gone
    const task = await deps.db.task.findUniqueOrThrow({
      where: { id: taskId },
      include: { agentSession: { select: { canaryBucket: true, agentId: true } }, owner: true },
    });
    // Claimed first (no other process runs it now), then checked against the state at this moment: a task
    // whose session, user, grant, tool or tier no longer lets it run ends here and never reaches the upstream.
    const check = await reauthorizeTask(deps.db, task);
    if (!check.ok) {
      await deps.db.$transaction((tx) => revokeTask(tx, taskId, { status: "RUNNING", runnerId }, check.reason, { step: check.step, attempt: task.attempts }));
      return;
    }
    await event(deps.db, taskId, "started", { attempt: task.attempts, runner: runnerId });
    await auditTransition(task, task.toolName);
    await deps.bus.publish({ kind: "task", taskId, status: "RUNNING" });
    const resolved = await deps.registry.resolveTool(task.toolName, task.agentSession?.canaryBucket ?? 0);
    if ("error" in resolved || resolved.refusal) {
      const message = "error" in resolved ? resolved.error : resolved.refusal!.message;
      await finish(
        taskId,
        {
          result: {
            isError: true,
            content: [{ type: "text", text: message }],
            _meta: { "portcullis/error": { code: "tool_unavailable", message } },
          },
          bytes: 0,
          truncated: false,
        },
        task.toolName,
      );
      return;
    }
    const ctx: RequestContext = {
      actor: { type: "user", userId: task.ownerId, email: task.owner.email, role: task.owner.role },
      requestId: task.requestId ?? `task:${taskId}`,
      via: "agent_token",
      ...(task.agentSession &&
        task.agentSessionId && { agent: { agentId: task.agentSession.agentId, agentSessionId: task.agentSessionId } }),
    };
    const controller = new AbortController();
    let sink: ((p: { progress: number; total?: number | undefined; message?: string | undefined }) => void) | undefined;
    const call: ToolCall = {
      tool: resolved.tool,
      arguments: check.arguments,
      endpoint: "mcp",
      signal: controller.signal,
      onProgress: (p) => sink?.(p),
    };
    await track(taskId, resolved.tool, execute(call, ctx, {}), controller, (fn) => (sink = fn));
  };

  const scheduleWebhook = (id: string, at: Date) => scheduleWebhookJob(deps.db, id, at);
  const sessionSecret = sessionSecretFor(deps.db);
  const secretFor = (d: Parameters<typeof sessionSecret>[0]) =>
    d.event.startsWith("approval.") ? Promise.resolve(deps.approverWebhookSecret ?? null) : sessionSecret(d);

  /** Tasks of dead runners: retryable ones are queued again (until maxAttempts), the rest fail `interrupted`. */
  async function sweep(): Promise<number> {
    const rows = await deps.db.$queryRaw<{ runnerId: string }[]>`
      SELECT DISTINCT "runnerId" FROM tasks WHERE status = 'RUNNING' AND "runnerId" IS NOT NULL AND "runnerId" <> ${runnerId}`;
    let recovered = 0;
    for (const { runnerId: other } of rows) {
      const finished: Task[] = [];
      await deps.db.$transaction(async (tx) => {
        // Free only if its process is gone (a live runner holds it on its own connection).
        const [lock] = await tx.$queryRaw<
          { free: boolean }[]
        >`SELECT pg_try_advisory_xact_lock(${RUNNER_LOCK_CLASS}::int, hashtext(${other})) AS free`;
        if (!lock?.free) return;
        const tasks = await tx.$queryRaw<
          Task[]
        >`SELECT * FROM tasks WHERE status = 'RUNNING' AND "runnerId" = ${other} FOR UPDATE`;
        const workers = [...new Set(tasks.map((t) => t.workerId).filter((w): w is string => !!w))];
        if (workers.length) await tx.$executeRaw`SELECT graphile_worker.force_unlock_workers(${workers}::text[])`;
        for (const t of tasks) {
          // A claim was never handed to anyone: its caller's request died with the process.
          if (t.origin === CLAIM_ORIGIN) {
            await tx.task.delete({ where: { id: t.id } });
            continue;
          }
          recovered++;
          if (t.retryable && t.attempts < t.maxAttempts) {
            await tx.task.update({ where: { id: t.id }, data: { status: "PENDING", runnerId: null, workerId: null } });
            await event(tx, t.id, "recovered", { action: "requeued", deadRunner: other, attempt: t.attempts });
            await enqueue(tx, t.id);
            await publishChange(tx, { kind: "task", taskId: t.id, status: "PENDING" });
          } else {
            const reason = t.retryable
              ? `The gateway process running this task stopped, and it has already started ${String(t.attempts)} times.`
              : "The gateway process running this task stopped before it finished. The tool is neither read-only nor idempotent, so it was not run again: check its effects before you retry.";
            const done = await tx.task.update({
              where: { id: t.id },
              data: {
                status: "FAILED",
                errorCode: "interrupted",
                errorMessage: reason,
                finishedAt: new Date(),
                runnerId: null,
                expiresAt: expiryFrom(new Date()),
              },
            });
            await event(tx, t.id, "recovered", { action: "failed", deadRunner: other, attempt: t.attempts });
            await webhookOnFinish(tx, done);
            await publishChange(tx, { kind: "task", taskId: t.id, status: "FAILED" });
            finished.push(done);
          }
        }
      });
      for (const t of finished) await auditTransition(t, t.toolName);
    }
    if (recovered) log.warn({ recovered }, "recovered tasks of stopped gateway processes");
    return recovered;
  }

  /** Deletes finished tasks past their retention (events and deliveries go with them). */
  async function cleanup(): Promise<number> {
    const { count } = await deps.db.task.deleteMany({
      where: { expiresAt: { lt: new Date() }, status: { in: ["SUCCEEDED", "FAILED", "CANCELED", "EXPIRED"] } },
    });
    if (count) log.info({ count }, "deleted expired tasks");
    return count;
  }

  function graphileLogger() {
    return new GraphileLogger(() => (level, message, meta) => {
      if (String(level) === "error") log.error({ meta }, message);
      else if (String(level) === "warning") log.warn({ meta }, message);
      else log.debug({ meta }, message);
    });
  }

  async function startWorkers(): Promise<void> {
    if (closed) return;
    await live();
    runner = await run({
      connectionString: deps.databaseUrl,
      concurrency: opts.concurrency,
      noHandleSignals: true,
      pollInterval: 1000,
      logger: graphileLogger(),
      taskList: {
        [RUN_TASK_JOB]: runTaskJob,
        [CLEANUP_JOB]: async () => void (await cleanup()),
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
        void Promise.all([sweep(), sweepWebhooks(deps.db, scheduleWebhook)])
          .catch((err: unknown) => log.error({ err }, "task sweep failed"))
          .finally(() => {
            if (!closed) tick();
          });
      }, opts.sweepIntervalMs);
      sweepTimer.unref();
    };
    await sweep().catch((err: unknown) => log.error({ err }, "task sweep failed"));
    tick();
  }

  return {
    runnerId,
    options: opts,
    /** Starts this process's workers and sweeper (once). */
    start(): Promise<void> {
      starting ??= startWorkers();
      return starting;
    },
    claim,
    dropClaim,
    promoteClaim,
    createAwaiting,
    release,
    expiryFrom,
    auditTransition,
    adopt,
    track,
    /** Whether this process still follows task `taskId`'s call (until its outcome is written, or left alone). */
    following: (taskId: string) => running.has(taskId),
    /** Recovers tasks of stopped processes now (the sweeper does it every sweepIntervalMs). */
    sweep,
    /** Deletes finished tasks past their retention now (a graphile cron job does it hourly). */
    cleanup,
    async close(): Promise<void> {
      closed = true;
      unsubscribe();
      for (const r of running.values()) r.controller.abort(new Error("gateway shutting down"));
      // Closed while start() was under way (Ctrl-C right after start): the runner and sweeper it makes must be
      // stopped too.
      await starting?.catch(() => undefined);
      if (sweepTimer) clearTimeout(sweepTimer);
      await runner?.stop().catch((err: unknown) => log.warn({ err }, "stopping the task workers failed"));
      if (liveness) await (await liveness).end().catch(() => undefined);
      await callClaims.close().catch(() => undefined);
    },
  };
}

export type TaskEngine = ReturnType<typeof createTaskEngine>;
export type { ResolvedTool };
