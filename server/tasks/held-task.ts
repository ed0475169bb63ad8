// A HIGH-tier call's task: created AWAITING_APPROVAL next to its approval request, queued once approved.
import type { RequestContext } from "../context";
import type { DbTx, Task } from "../db/client";
import { publishChange } from "../events/change-bus";
import type { TaskContext, ToolCall } from "../pipeline/types";
import { enqueueTask, taskEvent } from "./task-event";
import { taskRow } from "./task-row";
import type { TaskScope } from "./task-scope";

/**
 * A held call (HIGH tier): AWAITING_APPROVAL, no job yet. In the caller's transaction, next to its approval
 * request; release() queues it once approved.
 */
export async function createAwaiting(s: TaskScope, tx: DbTx, call: ToolCall, tc: TaskContext, ctx: RequestContext): Promise<Task> {
  const t = await tx.task.create({ data: taskRow(s, call, tc, ctx, "approval", "AWAITING_APPROVAL") });
  await taskEvent(tx, t.id, "submitted", { origin: "approval", requestId: ctx.requestId });
  await publishChange(tx, { kind: "task", taskId: t.id, status: "AWAITING_APPROVAL" });
  return t;
}

/** An approved task: AWAITING_APPROVAL → PENDING plus its job, in the approver's transaction. False if it was not waiting. */
export async function releaseTask(tx: DbTx, taskId: string, data: Record<string, unknown>): Promise<boolean> {
  const changed = await tx.task.updateMany({ where: { id: taskId, status: "AWAITING_APPROVAL" }, data: { status: "PENDING" } });
  if (!changed.count) return false;
  await taskEvent(tx, taskId, "approved", data);
  await enqueueTask(tx, taskId);
  await publishChange(tx, { kind: "task", taskId, status: "PENDING" });
  return true;
}
