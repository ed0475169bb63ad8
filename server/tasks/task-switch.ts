// The pipeline step that turns calls into tasks, after every check (whitelist, tier, rules, schema, rate
// limit) and in place of the output bound:
//   - every call that may become a task is claimed first (engine.claim: an advisory lock, then the row), so a
//     replay (same idempotency key, or the same call still running or within the dedupe window), on any
//     process, gets the first task and never runs; a call a person approved is never such a replay;
//   - a tool marked async, or a client asking for an MCP task, is queued and answered with the task id;
//   - any other call runs here; still running after the threshold, it is adopted as a task and answered
//     with the task id while it goes on (the agent's request no longer holds it);
//   - calls from outside agent sessions (the console's "try it") stay synchronous.
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import type { Task } from "../db/client";
import { boundNoted } from "../pipeline/bound-output";
import { isToolErrorCode, toolError } from "../pipeline/tool-error";
import type { CallNotes, Middleware, ResolvedTool } from "../pipeline/types";
import { CLAIM_ORIGIN } from "./claim-origin";
import type { TaskEngine } from "./task-engine";

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
    // `handle`: this answer stands for the task (a 2026 client gets its CreateTaskResult instead).
    _meta: { [TASK_META]: { taskId: task.id, status: task.status, retryAfterSeconds: pollSeconds, handle: true, ...(replay && { replay: true }) } },
  };
}

/**
 * For a caller that cannot follow a task (`noTasks`): the identical call's task once it has ended, as a plain
 * answer (its stored result, or a tool error saying how it ended without one).
 */
async function endedAnswer(engine: TaskEngine, task: Task, signal: AbortSignal, pollSeconds: number, maxOutputBytes: number, notes: CallNotes, tool: ResolvedTool): Promise<CallToolResult> {
  const ended = await engine.untilEnded(task.id, signal);
  if (ended.result) return replayAnswer(ended, pollSeconds, maxOutputBytes, notes, tool);
  const code = isToolErrorCode(ended.errorCode) ? ended.errorCode : ended.status === "CANCELED" ? "canceled" : "interrupted";
  notes.errorCode = code;
  return toolError(code, `The identical call this one joined (task ${ended.id}) ended ${ended.status} without a result${ended.errorMessage ? `: ${ended.errorMessage}` : "."}`);
}

/** A finished task's stored result (for a replay); a running one's handle. */
function replayAnswer(task: Task, pollSeconds: number, maxOutputBytes: number, notes: CallNotes, tool: ResolvedTool): CallToolResult {
  if ((task.status === "SUCCEEDED" || task.status === "FAILED") && task.result) {
    const out = boundNoted(task.result as CallToolResult, maxOutputBytes, tool, notes);
    return { ...out, _meta: { ...out._meta, [TASK_META]: { taskId: task.id, status: task.status, replay: true } } };
  }
  return taskAccepted(task, pollSeconds, true);
}

export function taskSwitch(engine: TaskEngine, maxOutputBytes: number): Middleware {
  const { thresholdMs, pollSeconds, dedupeWindowMs } = engine.options;
  return (next) => async (call, ctx, notes) => {
    const bound = (result: CallToolResult) => boundNoted(result, maxOutputBytes, call.tool, notes);
    const tc = call.task;
    if (call.noTasks && call.tool.async) {
      notes.errorCode = "task_required";
      return toolError("task_required", `${call.tool.gatewayName} runs only as a queued task, and this client did not declare that it can follow one.`);
    }
    if (!tc || tc.inline) return bound(await next(call, ctx, notes));
    // A call a person approved (a grant was used up for it at the gate) runs: it is never answered with an
    // earlier identical call's task, which would spend the approval on nothing.
    const dedupeMs = notes.approvalId ? 0 : dedupeWindowMs;
    // A call that needs approval and got here without a grant is a keyed retry (see the approval gate): it may
    // only be answered with its first task, never run.
    const replayOnly = !!call.approval && !notes.approvalId;
    const gone = () => {
      notes.errorCode = "approval_required";
      return toolError("approval_required", `The first call with this idempotency key is gone; ${call.tool.gatewayName} needs a person's approval: call it again (with a new key) to ask.`);
    };

    if (tc.mcpTask || call.tool.async) {
      const claimed = await engine.claim(call, tc, ctx, tc.mcpTask ? "mcp_task" : "async", dedupeMs, replayOnly);
      if (!claimed) return gone();
      notes.taskId = claimed.task.id;
      return claimed.replay ? replayAnswer(claimed.task, pollSeconds, maxOutputBytes, notes, call.tool) : bound(taskAccepted(claimed.task, pollSeconds));
    }
    // Without a threshold nothing here becomes a task: with no key there is nothing to claim.
    if (thresholdMs <= 0 && !tc.idempotencyKey) return bound(await next(call, ctx, notes));

    // The call is claimed before anything leaves for the upstream: with a key as its task, without one (when
    // identical calls are deduplicated) as a claim row that an identical call waits for and is answered with.
    let task: Task | null = null;
    if (tc.idempotencyKey || dedupeMs > 0) {
      const claimed = await engine.claim(call, tc, ctx, tc.idempotencyKey ? "idempotent" : CLAIM_ORIGIN, dedupeMs, replayOnly);
      if (!claimed) return gone();
      if (claimed.replay) {
        notes.taskId = claimed.task.id;
        if (call.noTasks) return endedAnswer(engine, claimed.task, call.signal, pollSeconds, maxOutputBytes, notes, call.tool);
        return replayAnswer(claimed.task, pollSeconds, maxOutputBytes, notes, call.tool);
      }
      task = claimed.task;
      if (task.origin !== CLAIM_ORIGIN) notes.taskId = task.id;
    }

    // Run here, on a signal of our own: until the hand-over the agent's cancellation stops the call; after it
    // only cancel_task does.
    const controller = new AbortController();
    const onAbort = () => controller.abort(call.signal.reason);
    if (call.signal.aborted) onAbort();
    else call.signal.addEventListener("abort", onAbort, { once: true });
    let sink: ProgressFn | undefined;
    const startedAt = new Date();
    const exec = next({ ...call, signal: controller.signal, onProgress: (p) => (call.onProgress?.(p), sink?.(p)) }, ctx, notes);

    type Race = { done: CallToolResult } | { failed: unknown } | { late: true };
    let timer: NodeJS.Timeout | undefined;
    const first = await Promise.race<Race>([
      exec.then(
        (done) => ({ done }),
        (failed: unknown) => ({ failed }),
      ),
      // A caller that cannot follow a task is never handed one: its call runs to the end here.
      new Promise<Race>((resolve) => (timer = setTimeout(() => resolve({ late: true }), (!call.noTasks && Math.max(thresholdMs, 0)) || 2 ** 31 - 1))),
    ]);
    clearTimeout(timer);
    call.signal.removeEventListener("abort", onAbort);

    if (!("late" in first)) {
      const outcome = () => ("done" in first ? Promise.resolve(first.done) : Promise.reject(first.failed instanceof Error ? first.failed : new Error(String(first.failed))));
      // Answered in time. A claim is settled after the answer (deleted, or finished as the task an identical
      // call was handed meanwhile): no round trip on the answer's path (D101).
      if (task?.origin === CLAIM_ORIGIN) {
        engine.settleClaim(task, call.tool, outcome());
        task = null;
      }
      // A keyed call records its outcome, and says which task it is: the one its replays are answered with.
      if (task) {
        notes.taskId = task.id;
        const row = await engine.track(task.id, call.tool, outcome(), controller, () => undefined);
        if ("done" in first) return bound({ ...first.done, _meta: { ...first.done._meta, [TASK_META]: { taskId: task.id, status: row?.status ?? "RUNNING" } } });
      }
      if ("failed" in first) throw first.failed;
      return bound(first.done);
    }

    // A claim made a task stays until the task has ended: an identical call meanwhile joins it.
    const claim = task?.origin === CLAIM_ORIGIN ? task : null;
    if (claim) task = await engine.promoteClaim(claim, ctx.requestId);
    task ??= await engine.adopt(call, tc, ctx, "threshold", startedAt);
    notes.taskId = task.id;
    const tracked = engine.track(task.id, call.tool, exec, controller, (fn) => (sink = fn));
    void (claim ? tracked.finally(() => engine.releaseClaim(claim)) : tracked);
    return bound(taskAccepted(task, pollSeconds));
  };
}
