// Task rows as the API, the console and the MCP task tools show them; who may see which task.
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { toPage } from "../../lib/pagination";
import type { TTask, TTaskDetail, TTaskEvent, TTaskPage, TTaskQuery } from "../../lib/task-schemas";
import type { DbTx, Prisma, Role, Task } from "../db/client";
import { notFound } from "../errors";
import { CLAIM_ORIGIN } from "./claim-origin";

export type TaskRow = Task & { owner: { email: string }; agentSession: { agentId: string } | null };
export const TASK_INCLUDE = { owner: { select: { email: true } }, agentSession: { select: { agentId: true } } } as const;

/** Who looks: admins see every task, everyone else only their own. */
export type TaskViewer = { userId: string; role: Role };

const PREVIEW_CHARS = 4000;

export function toTaskDto(t: TaskRow, now = Date.now()): TTask {
  const end = t.finishedAt?.getTime() ?? (t.status === "RUNNING" ? now : null);
  return {
    id: t.id,
    status: t.status,
    tool: t.toolName,
    origin: t.origin as TTask["origin"],
    ownerId: t.ownerId,
    ownerEmail: t.owner.email,
    agentId: t.agentSession?.agentId ?? null,
    agentSessionId: t.agentSessionId,
    attempts: t.attempts,
    progress: t.progress === null ? null : { progress: t.progress, total: t.progressTotal, message: t.progressMessage },
    errorCode: t.errorCode,
    errorMessage: t.errorMessage,
    resultBytes: t.resultBytes,
    resultTruncated: t.resultTruncated,
    createdAt: t.createdAt.toISOString(),
    startedAt: t.startedAt?.toISOString() ?? null,
    finishedAt: t.finishedAt?.toISOString() ?? null,
    durationMs: t.startedAt && end !== null ? Math.max(0, end - t.startedAt.getTime()) : null,
    expiresAt: t.expiresAt?.toISOString() ?? null,
  };
}

/** The text of a result's text items (and its structured content when there is no text), cut for a preview. */
export function resultPreview(result: unknown): string | null {
  if (!result || typeof result !== "object") return null;
  const r = result as CallToolResult;
  const texts = (r.content ?? []).filter((c) => c.type === "text").map((c) => c.text);
  const text = texts.length ? texts.join("\n") : r.structuredContent ? JSON.stringify(r.structuredContent, null, 2) : "";
  return text.length > PREVIEW_CHARS ? `${text.slice(0, PREVIEW_CHARS)}…` : text;
}

export function visibleTo(viewer: TaskViewer): Prisma.TaskWhereInput {
  return viewer.role === "ADMIN" ? {} : { ownerId: viewer.userId };
}

export async function listTasks(db: DbTx, viewer: TaskViewer, q: TTaskQuery & { agentSessionId?: string }): Promise<TTaskPage> {
  const where: Prisma.TaskWhereInput = {
    ...visibleTo(viewer),
    // A claim is a call running, not (yet) a task.
    origin: { not: CLAIM_ORIGIN },
    ...(q.mine && { ownerId: viewer.userId }),
    ...(q.status && { status: { in: q.status } }),
    ...(q.agentSessionId && { agentSessionId: q.agentSessionId }),
  };
  const rows = await db.task.findMany({
    where,
    include: TASK_INCLUDE,
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
    take: q.limit + 1,
    ...(q.cursor ? { cursor: { id: q.cursor }, skip: 1 } : {}),
  });
  const now = Date.now();
  return toPage(rows.map((r) => toTaskDto(r, now)), q.limit);
}

/** One task the viewer may see, or 404 (never 403: another user's task ids are not confirmed). */
export async function findVisibleTask(db: DbTx, viewer: TaskViewer, id: string): Promise<TaskRow> {
  const row = await db.task.findFirst({ where: { id, ...visibleTo(viewer) }, include: TASK_INCLUDE });
  if (!row) throw notFound(`Task ${id}`);
  return row;
}

export async function getTaskDetail(db: DbTx, viewer: TaskViewer, id: string): Promise<TTaskDetail> {
  const row = await findVisibleTask(db, viewer, id);
  const events = await db.taskEvent.findMany({ where: { taskId: id }, orderBy: { id: "asc" }, take: 500 });
  return {
    ...toTaskDto(row),
    arguments: (row.arguments ?? {}) as Record<string, unknown>,
    events: events.map((e): TTaskEvent => ({ id: String(e.id), type: e.type, at: e.createdAt.toISOString(), data: e.data ?? null })),
    resultPreview: resultPreview(row.result),
  };
}
