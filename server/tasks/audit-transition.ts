// One audit event per task transition (started, and each way a task ends), linked to the submitting request.
import type { RequestContext } from "../context";
import type { Task } from "../db/client";
import type { TaskScope } from "./task-scope";

/** One audit event per transition (started, and each way a task ends), linked to the submitting request. */
/** `by`: who caused the transition (an approver's rejection), its actor; the task's owner otherwise. */
export async function auditTransition(s: TaskScope, t: Task, toolName: string, by?: RequestContext) {
  const { db, log, audit } = s;
  const durationMs = t.startedAt && t.finishedAt ? t.finishedAt.getTime() - t.startedAt.getTime() : null;
  try {
    // The event names the agent, as its call's event does (the row keeps only the session).
    const agent = t.agentSessionId ? await db.agentSession.findUnique({ where: { id: t.agentSessionId }, select: { agentId: true } }) : null;
    await audit.write({
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
      details: { taskId: t.id, attempts: t.attempts, origin: t.origin },
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
    });
  } catch (err) {
    log.error({ err, taskId: t.id }, "audit of a task transition failed");
  }
}
