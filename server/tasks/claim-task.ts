// Claiming a call before anything of it leaves for the upstream, so that a replay of it (an idempotency key, or
// the same call within the dedupe window) on any process is answered with the first one's task.
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import type { RequestContext } from "../context";
import type { DbTx, Task } from "../db/client";
import { publishChange } from "../events/change-bus";
import type { ResolvedTool, TaskContext, ToolCall } from "../pipeline/types";
import { auditTransition } from "./audit-transition";
import { CLAIM_ORIGIN } from "./claim-origin";
import { hashArguments } from "./hash-arguments";
import { lockClaim } from "./lock-claim";
import { enqueueTask, taskEvent } from "./task-event";
import { taskRow } from "./task-row";
import type { Claim, TaskScope } from "./task-scope";
import { trackTask } from "./track-task";

/** Statuses a replay may be answered with. Not AWAITING_APPROVAL: a held task is not running, and a call that
 *  reaches the task switch has passed the approval gate (its grant would be used up for nothing). */
const REPLAYABLE = ["PENDING", "RUNNING", "SUCCEEDED"] as const;

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
  await taskEvent(tx, taskId, "submitted", { origin: "threshold", requestId });
  await taskEvent(tx, taskId, "started", { attempt: 1, runner: t.runnerId, inline: true });
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
export async function claimTask(s: TaskScope, call: ToolCall, tc: TaskContext, ctx: RequestContext, origin: "async" | "mcp_task" | "idempotent" | typeof CLAIM_ORIGIN, dedupeMs: number, replayOnly = false): Promise<Claim | null> {
  const { db, runnerId, live } = s;
  const queued = origin === "async" || origin === "mcp_task";
  if (queued) await s.started();
  else await live();
  // An ordinary call's claim, on every call: one round trip (call-claims.ts); an earlier identical call found
  // there is answered through the full path below.
  if (origin === CLAIM_ORIGIN && !replayOnly && !tc.idempotencyKey) {
    const fast = await s.callClaims.claim({ ...taskRow(s, call, tc, ctx, origin, "RUNNING"), runnerId }, dedupeMs);
    if (fast) return { task: fast, replay: false };
  }
  const lockParts = tc.idempotencyKey ? ["key", tc.agentSessionId, tc.idempotencyKey] : ["call", tc.agentSessionId, call.tool.gatewayName, hashArguments(call.arguments)];
  const claimed = await db.$transaction(async (tx): Promise<(Claim & { audit: boolean }) | null> => {
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
    const t = await tx.task.create({ data: taskRow(s, call, tc, ctx, origin, queued ? "PENDING" : "RUNNING") });
    if (origin === CLAIM_ORIGIN) return { task: t, replay: false, audit: false };
    await taskEvent(tx, t.id, "submitted", { origin, requestId: ctx.requestId });
    if (queued) await enqueueTask(tx, t.id);
    else await taskEvent(tx, t.id, "started", { attempt: 1, runner: runnerId, inline: true });
    await publishChange(tx, { kind: "task", taskId: t.id, status: t.status });
    return { task: t, replay: false, audit: !queued };
  });
  if (!claimed) return null;
  if (claimed.audit) await auditTransition(s, claimed.task, claimed.task.toolName);
  return { task: claimed.task, replay: claimed.replay };
}

/** A claim answered in time: deleted, unless it became a task meanwhile (then it is tracked like one). */
export async function dropClaim(s: TaskScope, taskId: string): Promise<boolean> {
  return s.callClaims.drop(taskId);
}

/**
 * A claim answered in time, settled after its answer has left (D101): deleted, or, when someone was handed its id
 * meanwhile, finished as the task they follow, with the outcome its caller was answered with. Off the answer's
 * path, so the first call of a joined pair is answered with its plain result, without the task id.
 */
export async function settleClaim(s: TaskScope, taskId: string, tool: ResolvedTool, outcome: Promise<CallToolResult>): Promise<void> {
  outcome.catch(() => undefined); // a failed call whose claim is dropped is read by no one here
  if (await dropClaim(s, taskId)) return;
  await trackTask(s, taskId, tool, outcome, new AbortController(), () => undefined);
}

/**
 * A claim still running after the threshold becomes a task (if nobody promoted it first). Null when the claim row
 * is gone: another process's sweep took this one for dead (its liveness connection was lost, PostgreSQL restarting)
 * and deleted it; the caller then adopts the running call as a new task.
 */
export async function promoteClaim(s: TaskScope, taskId: string, requestId: string): Promise<Task | null> {
  const { db } = s;
  const promoted = await db.$transaction((tx) => promote(tx, taskId, requestId));
  if (promoted) await auditTransition(s, promoted, promoted.toolName);
  return promoted ?? db.task.findUnique({ where: { id: taskId } });
}
