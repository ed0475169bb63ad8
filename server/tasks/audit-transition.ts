// One audit event per task transition (started, and each way a task ends), linked to the submitting request.
import type { AuditRow } from "../audit/audit-writer";
import type { RequestContext } from "../context";
import type { DbTx, Task } from "../db/client";
import type { TaskScope } from "./task-scope";

/** The event of a transition; `by`: who caused it (an approver's rejection), its actor; the task's owner otherwise. */
async function transitionRow(db: DbTx, t: Task, toolName: string, by?: RequestContext, details?: Record<string, unknown>): Promise<AuditRow> {
  const durationMs = t.startedAt && t.finishedAt ? t.finishedAt.getTime() - t.startedAt.getTime() : null;
  // The event names the agent, as its call's event does (the row keeps only the session).
  const agent = t.agentSessionId ? await db.agentSession.findUnique({ where: { id: t.agentSessionId }, select: { agentId: true } }) : null;
  return {
    requestId: t.requestId,
    action: t.status === "RUNNING" ? "task.started" : `task.${t.status.toLowerCase()}`,
    category: "gateway",
    actorType: by?.actor.type ?? "user",
    userId: by ? (by.actor.type === "user" ? by.actor.userId : null) : t.ownerId,
    ip: by?.ip ?? null,
    endpoint: t.endpoint,
    serverSlug: toolName.split("__")[0] ?? null,
    toolName,
    agentId: agent?.agentId ?? null,
    sessionId: t.agentSessionId,
    targetType: "task",
    taskId: t.id,
    details: { taskId: t.id, attempts: t.attempts, origin: t.origin, ...details },
    arguments: t.arguments ?? {},
    decision: "allow",
    ruleId: null,
    reason: t.errorMessage?.slice(0, 2000) ?? null,
    status: t.status === "SUCCEEDED" || t.status === "RUNNING" ? "ok" : "error",
    errorCode: t.errorCode,
    durationMs,
    resultBytes: t.resultBytes,
    truncated: t.resultTruncated,
    upstreamVersion: null,
  };
}

/** One audit event per transition, written after the transition committed (a failure is logged). */
export async function auditTransition(s: TaskScope, t: Task, toolName: string, by?: RequestContext) {
  try {
    await s.audit.write(await transitionRow(s.db, t, toolName, by));
  } catch (err) {
    s.log.error({ err, taskId: t.id }, "audit of a task transition failed");
  }
}

/** The transition's event in the transaction that makes it: both commit, or neither (a task's end). */
export async function auditTransitionIn(tx: DbTx, s: Pick<TaskScope, "audit">, t: Task, toolName: string, by?: RequestContext, details?: Record<string, unknown>) {
  await s.audit.inTransaction(tx, await transitionRow(tx, t, toolName, by, details));
}
