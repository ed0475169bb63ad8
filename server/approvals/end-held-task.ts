// A held call that will not run (rejected, withdrawn, expired): its task ends, with its event and webhook.
import { toJson, type DbTx, type Task } from "../db/client";
import { publishChange } from "../events/change-bus";
import type { ToolErrorCode } from "../pipeline/tool-error";
import { webhookOnFinish } from "../tasks/webhook-jobs";
import type { ApprovalScope } from "./approval-scope";

/** Ends a held call's task (still AWAITING_APPROVAL) in the caller's transaction; the ended task, or null. */
export async function endHeldTask(s: ApprovalScope, tx: DbTx, taskId: string | null, status: "CANCELED" | "EXPIRED", errorCode: ToolErrorCode, message: string, event: Record<string, unknown>): Promise<Task | null> {
  if (!taskId) return null;
  const { engine } = s;
  const now = new Date();
  const changed = await tx.task.updateMany({
    where: { id: taskId, status: "AWAITING_APPROVAL" },
    data: { status, errorCode, errorMessage: message.slice(0, 2000), finishedAt: now, expiresAt: engine.expiryFrom(now) },
  });
  if (!changed.count) return null;
  const t = await tx.task.findUniqueOrThrow({ where: { id: taskId } });
  await tx.taskEvent.create({ data: { taskId, type: status === "CANCELED" ? "canceled" : "expired", data: toJson(event) } });
  await webhookOnFinish(tx, t);
  await publishChange(tx, { kind: "task", taskId, status });
  return t;
}
