// Cancelling a task: the row turns CANCELED at once (PENDING tasks then never start: the runner claims only
// PENDING rows); a running one is aborted by whichever process runs it, which hears the `task_cancel` event on
// the change bus and aborts the upstream request (the SDK sends `notifications/cancelled` upstream).
import type { TTask } from "../../lib/task-schemas";
import type { RequestContext } from "../context";
import type { Db, Task } from "../db/client";
import { GatewayError } from "../errors";
import { publishChange } from "../events/change-bus";
import type { AuditRow, AuditWriter } from "../audit/audit-writer";
import type { ToolErrorCode } from "../pipeline/tool-error";
import { webhookOnFinish } from "./webhook-jobs";
import { findVisibleTask, TASK_INCLUDE, toTaskDto, type TaskViewer } from "./task-dto";

export const CANCELLABLE = ["PENDING", "AWAITING_APPROVAL", "RUNNING"] as const;

/**
 * Cancels a task the viewer may see; 404 for others' tasks, 409 once it has finished (or, with `from`, once it has
 * left those states: a client withdrawing a held call must not stop it after an approver released it).
 */
export async function cancelTask(
  db: Db,
  audit: AuditWriter,
  ctx: RequestContext,
  viewer: TaskViewer,
  id: string,
  reason = "Canceled by the user.",
  from: readonly (typeof CANCELLABLE)[number][] = CANCELLABLE,
): Promise<TTask> {
  const before = await findVisibleTask(db, viewer, id);
  const row = await db.$transaction(async (tx) => {
    const changed = await tx.task.updateMany({
      where: { id, status: { in: [...from] } },
      data: { status: "CANCELED", finishedAt: new Date(), errorCode: "canceled" satisfies ToolErrorCode, errorMessage: reason },
    });
    if (changed.count === 0) {
      const now = await tx.task.findUniqueOrThrow({ where: { id }, select: { status: true } });
      // The console's and API's words for a finished task; a withdrawal (`from`) says which states it needed.
      if (from === CANCELLABLE) throw new GatewayError("conflict", `Task ${id} has already finished (${now.status}); only pending or running tasks can be canceled.`);
      throw new GatewayError("conflict", `Task ${id} has already moved on (${now.status}); only ${from.join(", ")} tasks can be canceled.`);
    }
    // A call held for approval: its request leaves the approvers' queue with it.
    const withdrawn = await tx.approval.updateMany({ where: { taskId: id, status: "PENDING" }, data: { status: "CANCELED", decidedAt: new Date(), decisionComment: reason } });
    if (withdrawn.count) {
      const approval = await tx.approval.findFirstOrThrow({ where: { taskId: id }, select: { id: true } });
      await publishChange(tx, { kind: "approval", approvalId: approval.id, status: "CANCELED" });
    }
    await webhookOnFinish(tx, await tx.task.findUniqueOrThrow({ where: { id } }));
    await tx.taskEvent.create({ data: { taskId: id, type: "canceled", data: { by: ctx.actor.type === "user" ? ctx.actor.email : ctx.actor.name, reason, wasRunning: before.status === "RUNNING" } } });
    // Delivered at commit: the runner aborts the upstream call, the console refreshes.
    await publishChange(tx, { kind: "task", taskId: id, status: "CANCELED" });
    const canceled = await tx.task.findUniqueOrThrow({ where: { id }, include: TASK_INCLUDE });
    // The cancel is a task transition like the others, with who canceled it as the actor; its event commits with it (D93).
    await audit.inTransaction(tx, canceledEvent(ctx, canceled, before.status, reason));
    return canceled;
  });
  return toTaskDto(row);
}

function canceledEvent(ctx: RequestContext, row: Task & { agentSession: { agentId: string } | null }, was: string, reason: string): AuditRow {
  return {
    requestId: ctx.requestId,
    action: "task.canceled",
    category: "gateway",
    actorType: ctx.actor.type,
    userId: ctx.actor.type === "user" ? ctx.actor.userId : null,
    ip: ctx.ip ?? null,
    endpoint: row.endpoint,
    serverSlug: row.toolName.split("__")[0] ?? null,
    toolName: row.toolName,
    agentId: row.agentSession?.agentId ?? null,
    sessionId: row.agentSessionId,
    targetType: "task",
    taskId: row.id,
    arguments: {},
    decision: null,
    ruleId: null,
    reason,
    status: "ok",
    errorCode: "canceled" satisfies ToolErrorCode,
    durationMs: null,
    resultBytes: null,
    truncated: false,
    upstreamVersion: null,
    details: { wasRunning: was === "RUNNING", wasAwaitingApproval: was === "AWAITING_APPROVAL" },
  };
}
