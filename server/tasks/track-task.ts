// A call running here, followed as task `taskId`: cancelable, its progress recorded, its result bounded and stored.
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import type { Task } from "../db/client";
import { boundResult } from "../pipeline/bound-output";
import type { CallNotes, ResolvedTool } from "../pipeline/types";
import { finishTask } from "./finish-task";
import { progressRecorder } from "./progress-recorder";
import type { TaskScope } from "./task-scope";

/**
 * Follows a call already running here as task `taskId`: registers it for cancellation, records progress
 * (through the sink it is given), bounds and stores the result.
 */
export async function trackTask(
  s: TaskScope,
  taskId: string,
  tool: ResolvedTool,
  exec: Promise<CallToolResult>,
  controller: AbortController,
  progressSink: (
    fn: ((p: { progress: number; total?: number | undefined; message?: string | undefined }) => void) | undefined,
  ) => void,
  /** The run's notes: the credential it used is recorded on the task's end event. */
  notes?: CallNotes,
): Promise<Task | null> {
  const { db, opts, running } = s;
  running.set(taskId, { controller, taskId });
  // A cancel that landed between the row's insert and this registration must still stop the call.
  const now = await db.task.findUnique({ where: { id: taskId }, select: { status: true } });
  if (now?.status === "CANCELED") controller.abort(new Error("task canceled"));
  const progress = progressRecorder(s, taskId);
  progressSink((p) => progress.record(p));
  try {
    const raw = await exec;
    await progress.done();
    return await finishTask(s, taskId, boundResult(raw, opts.resultMaxBytes, tool), tool.gatewayName, notes?.credential);
  } catch (err) {
    await progress.done();
    return await finishTask(s, taskId, { error: err }, tool.gatewayName, notes?.credential);
  } finally {
    progressSink(undefined);
    running.delete(taskId);
  }
}
