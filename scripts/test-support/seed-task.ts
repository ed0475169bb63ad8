// Task rows written straight into the database, as the engine would leave them, for tests of the REST API and
// the console's task monitor (which read tasks; running real ones is the engine's own tests' job).
import { createHash, randomBytes } from "node:crypto";
import type { TTaskStatus } from "../../lib/task-schemas";
import { toJson, type AgentSession, type DbTx, type Task } from "../../server/db/client";

export type SeedTask = {
  ownerId: string;
  toolName?: string;
  status?: TTaskStatus;
  arguments?: Record<string, unknown>;
  origin?: "async" | "threshold" | "mcp_task" | "idempotent";
  agentSessionId?: string;
  /** When it was submitted; it started a second later and, when finished, ran for `ranMs`. */
  createdAt?: Date;
  ranMs?: number;
  progress?: { progress: number; total?: number; message?: string };
  /** A CallToolResult, for a finished task. */
  result?: unknown;
  errorCode?: string;
  errorMessage?: string;
};

const FINISHED_EVENT: Partial<Record<TTaskStatus, string>> = {
  SUCCEEDED: "succeeded",
  FAILED: "failed",
  CANCELED: "canceled",
  EXPIRED: "failed",
};

/** One task and the events its life so far would have written: submitted, started, progress, finished. */
export async function seedTask(db: DbTx, t: SeedTask): Promise<Task> {
  const status = t.status ?? "PENDING";
  const args = t.arguments ?? {};
  const createdAt = t.createdAt ?? new Date();
  const started = status !== "PENDING" && status !== "AWAITING_APPROVAL";
  const startedAt = started ? new Date(createdAt.getTime() + 1000) : null;
  const finishEvent = FINISHED_EVENT[status];
  const finishedAt = startedAt && finishEvent ? new Date(startedAt.getTime() + (t.ranMs ?? 2000)) : null;
  const task = await db.task.create({
    data: {
      ownerId: t.ownerId,
      toolName: t.toolName ?? "orders__export_orders",
      arguments: toJson(args),
      argumentsHash: createHash("sha256").update(JSON.stringify(args)).digest("hex"),
      status,
      origin: t.origin ?? "async",
      agentSessionId: t.agentSessionId ?? null,
      attempts: started ? 1 : 0,
      progress: t.progress?.progress ?? null,
      progressTotal: t.progress?.total ?? null,
      progressMessage: t.progress?.message ?? null,
      ...(t.result !== undefined && { result: toJson(t.result), resultBytes: JSON.stringify(t.result).length }),
      errorCode: t.errorCode ?? null,
      errorMessage: t.errorMessage ?? null,
      createdAt,
      startedAt,
      finishedAt,
    },
  });
  // The data of each event as the engine (server/tasks/task-engine.ts) writes it.
  const events: { type: string; createdAt: Date; data?: unknown }[] = [
    { type: "submitted", createdAt, data: { origin: task.origin } },
  ];
  if (startedAt) events.push({ type: "started", createdAt: startedAt, data: { attempt: 1, runner: "seed" } });
  if (startedAt && t.progress) {
    const { progress, total = null, message = null } = t.progress;
    events.push({
      type: "progress",
      createdAt: new Date(startedAt.getTime() + 500),
      data: { progress, total, message },
    });
  }
  if (finishedAt && finishEvent) {
    const data =
      finishEvent === "canceled"
        ? { by: "seed", reason: t.errorMessage ?? "Canceled by the user.", wasRunning: true }
        : { errorCode: task.errorCode, resultBytes: task.resultBytes, truncated: false };
    events.push({ type: finishEvent, createdAt: finishedAt, data });
  }
  for (const e of events) {
    await db.taskEvent.create({
      data: { taskId: task.id, type: e.type, createdAt: e.createdAt, ...(e.data ? { data: toJson(e.data) } : {}) },
    });
  }
  return task;
}

/** An agent session row (no usable token) for tasks to name their agent. */
export function seedAgentSession(db: DbTx, userId: string, agentId: string): Promise<AgentSession> {
  const token = `pcs_${randomBytes(18).toString("base64url")}`;
  return db.agentSession.create({
    data: {
      userId,
      agentId,
      tokenHash: createHash("sha256").update(token).digest("hex"),
      prefix: token.slice(0, 10),
      tools: ["*"],
      paths: [],
      expiresAt: new Date(Date.now() + 3_600_000),
    },
  });
}
