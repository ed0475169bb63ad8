// Ending queued work whose authorization is gone: the task row turns CANCELED `authorization_revoked` only
// from PENDING (a conditional update, so a worker's claim and this end exclude each other on every process)
// or, for the worker that claimed it, from its own RUNNING claim. One audit denial per task, in the same
// transaction as the transition, so a task never ends revoked without its record.
import type { DbTx, Prisma, Task } from "../db/client";
import { toJson } from "../db/client";
import { publishChange } from "../events/change-bus";
import { redactor } from "../audit/redaction";
import { storableRow } from "../audit/storable-row";
import type { ToolErrorCode } from "../pipeline/tool-error";
import { webhookOnFinish } from "./webhook-jobs";

export const AUTHORIZATION_REVOKED: ToolErrorCode = "authorization_revoked";

/** Which rows may be ended: PENDING ones (nobody runs them), or RUNNING ones claimed by `runnerId`. */
type From = { status: "PENDING" } | { status: "RUNNING"; runnerId: string };

/** Ends task `taskId` revoked if it is still in `from`; the ended row, or null if it was not (any more). */
export async function revokeTask(tx: DbTx, taskId: string, from: From, reason: string, details: Record<string, unknown> = {}): Promise<Task | null> {
  const now = new Date();
  const changed = await tx.task.updateMany({
    where: { id: taskId, ...from },
    data: { status: "CANCELED", errorCode: AUTHORIZATION_REVOKED, errorMessage: reason, finishedAt: now, runnerId: null },
  });
  if (!changed.count) return null;
  const t = await tx.task.findUniqueOrThrow({ where: { id: taskId }, include: { agentSession: { select: { agentId: true } } } });
  await tx.taskEvent.create({ data: { taskId, type: "canceled", data: toJson({ reason, errorCode: AUTHORIZATION_REVOKED, ...details }) } });
  await webhookOnFinish(tx, t);
  await publishChange(tx, { kind: "task", taskId, status: "CANCELED" });
  await tx.auditEvent.create({
    data: storableRow({
      requestId: t.requestId,
      action: "task.canceled",
      category: "gateway",
      actorType: "system",
      userId: t.ownerId,
      agentId: t.agentSession?.agentId ?? null,
      sessionId: t.agentSessionId,
      endpoint: t.endpoint,
      serverSlug: t.toolName.split("__")[0] ?? null,
      toolName: t.toolName,
      targetType: "task",
      targetId: taskId,
      taskId,
      decision: "deny",
      status: "denied",
      errorCode: AUTHORIZATION_REVOKED,
      reason: redactor().text(reason),
      details: redactor().value({ taskId, origin: t.origin, attempts: t.attempts, ...details }) as Prisma.InputJsonValue,
    }),
  });
  return t;
}

/** Ends every PENDING task matching `where` (a revoked session's, a disabled user's), in the caller's transaction. */
export async function revokePendingTasks(tx: DbTx, where: Prisma.TaskWhereInput, reason: string): Promise<number> {
  const pending = await tx.task.findMany({ where: { ...where, status: "PENDING" }, select: { id: true } });
  let ended = 0;
  for (const { id } of pending) if (await revokeTask(tx, id, { status: "PENDING" }, reason)) ended++;
  return ended;
}
