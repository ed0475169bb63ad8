// A call already running in this process becomes a RUNNING task of this runner (it outlived the threshold).
import type { RequestContext } from "../context";
import type { Task } from "../db/client";
import { publishChange } from "../events/change-bus";
import type { TaskContext, ToolCall } from "../pipeline/types";
import { auditTransition } from "./audit-transition";
import { taskEvent } from "./task-event";
import { taskRow } from "./task-row";
import type { TaskScope } from "./task-scope";

/** Records a call already running in this process as a RUNNING task of this runner. */
export async function adoptTask(
  s: TaskScope,
  call: ToolCall,
  tc: TaskContext,
  ctx: RequestContext,
  origin: string,
  startedAt: Date,
): Promise<Task> {
  const { db, runnerId, live } = s;
  await live();
  const task = await db.$transaction(async (tx) => {
    const t = await tx.task.create({ data: taskRow(s, call, tc, ctx, origin, "RUNNING", startedAt) });
    await taskEvent(tx, t.id, "submitted", { origin, requestId: ctx.requestId });
    await taskEvent(tx, t.id, "started", { attempt: 1, runner: runnerId, inline: true });
    await publishChange(tx, { kind: "task", taskId: t.id, status: "RUNNING" });
    return t;
  });
  await auditTransition(s, task, task.toolName);
  return task;
}
