// The pipeline step that turns calls into tasks, after every check (whitelist, tier, rules, schema, rate
// limit) and in place of the output bound:
//   - a replay (same idempotency key, or the same call again within the dedupe window) gets the first task;
//   - a tool marked async, or a client asking for an MCP task, is queued and answered with the task id;
//   - any other call runs here; still running after the threshold, it is adopted as a task and answered
//     with the task id while it goes on (the agent's request no longer holds it);
//   - calls from outside agent sessions (the console's "try it") stay synchronous.
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { Prisma, type DbTx, type Task } from "../db/client";
import { boundNoted } from "../pipeline/bound-output";
import type { CallNotes, Middleware, ResolvedTool } from "../pipeline/types";
import { hashArguments, type TaskEngine } from "./task-engine";

type ProgressFn = (p: { progress: number; total?: number | undefined; message?: string | undefined }) => void;

export const TASK_META = "portcullis/task";

/** The answer to a call that became (or already was) a task: how to follow it, in words and in structure. */
export function taskAccepted(task: Pick<Task, "id" | "status" | "toolName">, pollSeconds: number, replay = false): CallToolResult {
  const text = replay
    ? `This call was already submitted as task ${task.id} (${task.status}); it was not run again.`
    : `${task.toolName} is running as task ${task.id} (${task.status}).`;
  return {
    content: [
      {
        type: "text",
        text: `${text} Call get_task_status with {"task_id":"${task.id}"} about every ${String(pollSeconds)} seconds until it has finished, then get_task_result for the result; cancel_task stops it.`,
      },
    ],
    structuredContent: { task_id: task.id, status: task.status },
    _meta: { [TASK_META]: { taskId: task.id, status: task.status, retryAfterSeconds: pollSeconds, ...(replay && { replay: true }) } },
  };
}

/** The first task of a replayed call: the same idempotency key, or (without a key) the same call still fresh. */
async function findReplay(db: DbTx, agentSessionId: string, toolName: string, args: unknown, key: string | undefined, windowMs: number): Promise<Task | null> {
  if (key) return db.task.findUnique({ where: { agentSessionId_idempotencyKey: { agentSessionId, idempotencyKey: key } } });
  if (windowMs <= 0) return null;
  return db.task.findFirst({
    where: {
      agentSessionId,
      argumentsHash: hashArguments(args),
      toolName,
      createdAt: { gte: new Date(Date.now() - windowMs) },
      status: { in: ["PENDING", "RUNNING", "AWAITING_APPROVAL", "SUCCEEDED"] },
    },
    orderBy: { createdAt: "desc" },
  });
}

/** A finished task's stored result (for a replay); a running one's handle. */
function replayAnswer(task: Task, pollSeconds: number, maxOutputBytes: number, notes: CallNotes, tool: ResolvedTool): CallToolResult {
  if ((task.status === "SUCCEEDED" || task.status === "FAILED") && task.result) {
    const out = boundNoted(task.result as CallToolResult, maxOutputBytes, tool, notes);
    return { ...out, _meta: { ...out._meta, [TASK_META]: { taskId: task.id, status: task.status, replay: true } } };
  }
  return taskAccepted(task, pollSeconds, true);
}

export function taskSwitch(engine: TaskEngine, db: DbTx, maxOutputBytes: number): Middleware {
  const { thresholdMs, pollSeconds, dedupeWindowMs } = engine.options;
  return (next) => async (call, ctx, notes) => {
    const bound = (result: CallToolResult) => boundNoted(result, maxOutputBytes, call.tool, notes);
    const tc = call.task;
    if (!tc || tc.inline) return bound(await next(call, ctx, notes));

    const replayed = await findReplay(db, tc.agentSessionId, call.tool.gatewayName, call.arguments, tc.idempotencyKey, dedupeWindowMs);
    if (replayed) {
      notes.taskId = replayed.id;
      return replayAnswer(replayed, pollSeconds, maxOutputBytes, notes, call.tool);
    }

    if (tc.mcpTask || call.tool.async) {
      const task = await engine.submitQueued(call, tc, ctx, tc.mcpTask ? "mcp_task" : "async");
      notes.taskId = task.id;
      return bound(taskAccepted(task, pollSeconds));
    }
    if (thresholdMs <= 0 && !tc.idempotencyKey) return bound(await next(call, ctx, notes));

    // Run here, on a signal of our own: until the hand-over the agent's cancellation stops the call; after it
    // only cancel_task does.
    const controller = new AbortController();
    const onAbort = () => controller.abort(call.signal.reason);
    if (call.signal.aborted) onAbort();
    else call.signal.addEventListener("abort", onAbort, { once: true });
    let sink: ProgressFn | undefined;
    const startedAt = new Date();
    const exec = next({ ...call, signal: controller.signal, onProgress: (p) => (call.onProgress?.(p), sink?.(p)) }, ctx, notes);

    // With an idempotency key the task row exists from the start: a retry with the key never runs it again.
    let task: Task | null = null;
    if (tc.idempotencyKey) {
      try {
        task = await engine.adopt(call, tc, ctx, "idempotent", startedAt);
      } catch (err) {
        controller.abort(new Error("duplicate idempotency key"));
        if (!(err instanceof Prisma.PrismaClientKnownRequestError && err.code === "P2002")) throw err;
        const first = await findReplay(db, tc.agentSessionId, call.tool.gatewayName, call.arguments, tc.idempotencyKey, 0);
        if (!first) throw err;
        notes.taskId = first.id;
        return replayAnswer(first, pollSeconds, maxOutputBytes, notes, call.tool);
      }
      notes.taskId = task.id;
    }

    type Race = { done: CallToolResult } | { failed: unknown } | { late: true };
    let timer: NodeJS.Timeout | undefined;
    const first = await Promise.race<Race>([
      exec.then(
        (done) => ({ done }),
        (failed: unknown) => ({ failed }),
      ),
      new Promise<Race>((resolve) => (timer = setTimeout(() => resolve({ late: true }), Math.max(thresholdMs, 0) || 2 ** 31 - 1))),
    ]);
    clearTimeout(timer);
    call.signal.removeEventListener("abort", onAbort);

    if (!("late" in first)) {
      // Answered in time. A keyed call still records its outcome, for replays.
      if (task) await engine.track(task.id, call.tool, "done" in first ? Promise.resolve(first.done) : Promise.reject(first.failed instanceof Error ? first.failed : new Error(String(first.failed))), controller, () => undefined);
      if ("failed" in first) throw first.failed;
      return bound(first.done);
    }

    task ??= await engine.adopt(call, tc, ctx, "threshold", startedAt);
    notes.taskId = task.id;
    void engine.track(task.id, call.tool, exec, controller, (fn) => (sink = fn));
    return bound(taskAccepted(task, pollSeconds));
  };
}
