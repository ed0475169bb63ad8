// Claiming a call before anything of it leaves for the upstream, so that a replay of it (an idempotency key, or
// the same call within the dedupe window) on any process is answered with the first one's task.
import { randomUUID } from "node:crypto";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import type { RequestContext } from "../context";
import type { DbTx, Task } from "../db/client";
import { publishChange } from "../events/change-bus";
import type { ResolvedTool, TaskContext, ToolCall } from "../pipeline/types";
import { auditTransition } from "./audit-transition";
import type { ClaimRef } from "./call-claims";
import { CLAIM_ORIGIN } from "./claim-origin";
import { hashArguments } from "./hash-arguments";
import { joinClaim } from "./join-claim";
import { lockClaim } from "./lock-claim";
import { placeClaim } from "./place-claim";
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

/**
 * Claims a call before anything of it leaves for the upstream. CLAIM_ORIGIN (an ordinary call without a key)
 * claims a row of call_claims (call-claims.ts), whose primary key decides between racing identical calls on any
 * process; the others insert their task under a transaction-scoped advisory lock on the idempotency key (or on
 * the session, tool and arguments): a racing call, on any process, waits for the lock, then finds this row and is
 * answered with it. An async or MCP-task origin inserts the task PENDING with its job; "idempotent" a RUNNING
 * task of this runner.
 * `dedupeMs` 0 looks for no earlier identical call (only the key, if any). `replayOnly` (a call that may only
 * be answered with its first task: it passed the approval gate as a keyed retry) claims nothing: null if
 * there is no first task any more.
 */
export async function claimTask(s: TaskScope, call: ToolCall, tc: TaskContext, ctx: RequestContext, origin: "async" | "mcp_task" | "idempotent" | typeof CLAIM_ORIGIN, dedupeMs: number, replayOnly = false): Promise<Claim | null> {
  const { db, runnerId, live } = s;
  const queued = origin === "async" || origin === "mcp_task";
  if (queued) await s.started();
  else await live();
  const key = { agentSessionId: tc.agentSessionId, toolName: call.tool.gatewayName, argumentsHash: hashArguments(call.arguments) };
  // An ordinary call's claim, on every call: one statement (call-claims.ts). When it claims nothing, an identical
  // call is in flight (joined here) or in tasks (answered with it); when both are gone by the time this looks
  // (the first call was answered and its claim dropped meanwhile), this call claims again: a new run.
  if (origin === CLAIM_ORIGIN && !tc.idempotencyKey) {
    for (;;) {
      if (!replayOnly) {
        const fast = await s.callClaims.claim({ ...taskRow(s, call, tc, ctx, origin, "RUNNING"), runnerId }, dedupeMs);
        if (fast) return { task: fast, replay: false };
      }
      const found = await db.$transaction(async (tx) => {
        const joined = await joinClaim(tx, key, ctx.requestId);
        if (joined) return joined;
        const first = await findReplay(tx, call, tc, dedupeMs);
        return first && { task: first, made: false };
      });
      if (found) return answered(s, found);
      if (replayOnly) return null;
    }
  }
  const lockParts = tc.idempotencyKey ? ["key", tc.agentSessionId, tc.idempotencyKey] : ["call", tc.agentSessionId, call.tool.gatewayName, key.argumentsHash];
  const claimed = await db.$transaction(async (tx): Promise<(Claim & { audit: boolean }) | null> => {
    await lockClaim(tx, lockParts);
    const first = await findReplay(tx, call, tc, dedupeMs);
    if (first) return { task: first, replay: true, audit: false };
    const data = taskRow(s, call, tc, ctx, origin, queued ? "PENDING" : "RUNNING");
    // Without a key, an identical ordinary call in flight is joined; else this task's claim is placed (place-claim.ts).
    let id: string | undefined;
    while (!tc.idempotencyKey && dedupeMs > 0) {
      const joined = await joinClaim(tx, key, ctx.requestId);
      if (joined) return { task: joined.task, replay: true, audit: joined.made };
      if (replayOnly) return null;
      id = randomUUID();
      if (await placeClaim(tx, { ...data, toolId: data.toolId ?? null, runnerId }, id, data.createdAt)) break;
    }
    if (replayOnly) return null;
    const t = await tx.task.create({ data: { ...data, ...(id && { id }) } });
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

/** A replay's answer: the task it joined or found; the task it made of a claim is audited as a new task. */
async function answered(s: TaskScope, found: { task: Task; made: boolean }): Promise<Claim> {
  if (found.made) await auditTransition(s, found.task, found.task.toolName);
  return { task: found.task, replay: true };
}

/**
 * A claim answered in time, settled after its answer has left (D101): deleted, or, when an identical call joined it
 * meanwhile (it became a task), finished as the task they follow, with the outcome its caller was answered with,
 * and then deleted. Off the answer's path, so the first call of a joined pair is answered with its plain result,
 * without the task id.
 */
export async function settleClaim(s: TaskScope, claim: ClaimRef, tool: ResolvedTool, outcome: Promise<CallToolResult>): Promise<void> {
  outcome.catch(() => undefined); // a failed call whose claim is dropped is read by no one here
  if (await s.callClaims.drop(claim)) return;
  try {
    await trackTask(s, claim.id, tool, outcome, new AbortController(), () => undefined);
  } finally {
    // Only now: until the task has ended, an identical call must find the claim (or the task) and join it.
    await s.callClaims.release(claim);
  }
}

/**
 * A claim still running after the threshold becomes a task (unless a twin made it one first). Null when the claim
 * row is gone: another process's sweep took this one for dead (its liveness connection was lost, PostgreSQL
 * restarting) and deleted it; the caller then adopts the running call as a new task. The claim stays until the
 * task has ended (releaseClaim).
 */
export async function promoteClaim(s: TaskScope, claim: ClaimRef, requestId: string): Promise<Task | null> {
  const key = { agentSessionId: claim.agentSessionId ?? "", toolName: claim.toolName, argumentsHash: claim.argumentsHash };
  const promoted = await s.db.$transaction((tx) => joinClaim(tx, key, requestId, claim.id));
  if (promoted?.made) await auditTransition(s, promoted.task, promoted.task.toolName);
  return promoted?.task ?? null;
}
