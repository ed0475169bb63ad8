// The task tools every MCP endpoint offers (get_task_status, get_task_result, cancel_task, list_my_tasks),
// and the MCP tasks utility of protocol 2025-11-25 (tasks/get, tasks/result, tasks/list, tasks/cancel)
// over the same rows. An agent session sees only its own tasks; an unknown id and another session's id get
// the same answer.
import type { TaskStore } from "@modelcontextprotocol/sdk/experimental/tasks/interfaces.js";
import type { CallToolResult, Task as McpTask, Tool } from "@modelcontextprotocol/sdk/types.js";
import { ErrorCode, McpError } from "@modelcontextprotocol/sdk/types.js";
import { isTerminalTaskStatus, TASK_STATUSES, type TTaskStatus } from "../../lib/task-schemas";
import type { RequestContext } from "../context";
import type { AuditWriter } from "../audit/audit-writer";
import type { Db, Task } from "../db/client";
import { isGatewayError } from "../errors";
import { boundResult } from "../pipeline/bound-output";
import { toolError } from "../pipeline/tool-error";
import type { ResolvedTool } from "../pipeline/types";
import { cancelTask } from "./cancel-task";
import { CLAIM_ORIGIN } from "./claim-origin";
import { TASK_META } from "./task-switch";

export const TASK_TOOL_NAMES = ["get_task_status", "get_task_result", "cancel_task", "list_my_tasks"] as const;
export type TaskToolName = (typeof TASK_TOOL_NAMES)[number];
export const isTaskTool = (name: string): name is TaskToolName => (TASK_TOOL_NAMES as readonly string[]).includes(name);

const TASK_ID = { type: "string", description: "The task id a call answered with (structuredContent.task_id)" } as const;

export function taskToolDefinitions(pollSeconds: number): Tool[] {
  return [
    {
      name: "get_task_status",
      title: "Task status",
      description: `Where a long-running tool call stands: PENDING, RUNNING (with progress), SUCCEEDED, FAILED or CANCELED. Poll about every ${String(pollSeconds)} seconds (the answer's retry_after_seconds says when to ask again), not in a tight loop; once it has finished, call get_task_result.`,
      inputSchema: { type: "object", properties: { task_id: TASK_ID }, required: ["task_id"], additionalProperties: false },
      outputSchema: {
        type: "object",
        properties: {
          task_id: { type: "string" },
          tool: { type: "string" },
          status: { type: "string", enum: [...TASK_STATUSES] },
          progress: { type: ["number", "null"] },
          total: { type: ["number", "null"] },
          message: { type: ["string", "null"] },
          attempts: { type: "integer" },
          created_at: { type: "string" },
          started_at: { type: ["string", "null"] },
          finished_at: { type: ["string", "null"] },
          error_code: { type: ["string", "null"] },
          error_message: { type: ["string", "null"] },
          retry_after_seconds: { type: ["integer", "null"] },
        },
        required: ["task_id", "tool", "status"],
      },
      annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
    },
    {
      name: "get_task_result",
      title: "Task result",
      description:
        "The result of a finished task, as the tool answered it. A large result comes in pages: the answer says which page it is and how to get the next (page: 2, 3, …). For a task still running it says so; ask get_task_status later.",
      inputSchema: {
        type: "object",
        properties: { task_id: TASK_ID, page: { type: "integer", minimum: 1, description: "Page of a large result, from 1" } },
        required: ["task_id"],
        additionalProperties: false,
      },
      annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
    },
    {
      name: "cancel_task",
      title: "Cancel a task",
      description: "Stops a pending or running task; the upstream server is told to cancel the call. A finished task cannot be canceled.",
      inputSchema: { type: "object", properties: { task_id: TASK_ID }, required: ["task_id"], additionalProperties: false },
      annotations: { destructiveHint: false, idempotentHint: true, openWorldHint: false },
    },
    {
      name: "list_my_tasks",
      title: "My tasks",
      description: "The tasks of this session, newest first, optionally of some statuses only.",
      inputSchema: {
        type: "object",
        properties: {
          status: { type: "array", items: { type: "string", enum: [...TASK_STATUSES] }, description: "Only these statuses" },
          limit: { type: "integer", minimum: 1, maximum: 100, default: 20 },
        },
        additionalProperties: false,
      },
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
  ];
}

/**
 * A tool as an agent endpoint lists it: it may run as a task (MCP tasks utility), and its answer may be a
 * task handle `{ task_id, status }`, so a declared output schema admits that too ($defs stay at the root,
 * where `#/$defs/…` references look for them).
 */
export function asTaskCapable<T extends Tool>(tool: T): T {
  const out = tool.outputSchema;
  const execution = { ...tool.execution, taskSupport: "optional" as const };
  if (!out) return { ...tool, execution };
  const { $schema, $defs, definitions, ...rest } = out;
  const outputSchema = {
    ...($schema !== undefined && { $schema }),
    ...($defs !== undefined && { $defs }),
    ...(definitions !== undefined && { definitions }),
    type: "object" as const,
    anyOf: [rest, TASK_HANDLE_SCHEMA],
  };
  return { ...tool, execution, outputSchema };
}

const TASK_HANDLE_SCHEMA = {
  type: "object",
  description: "The call runs as a task: follow it with get_task_status and get_task_result",
  properties: { task_id: { type: "string" }, status: { type: "string", enum: [...TASK_STATUSES] } },
  required: ["task_id", "status"],
};

export type TaskToolSession = { agentSessionId: string; ownerId: string };
export type TaskToolDeps = { db: Db; audit: AuditWriter; pollSeconds: number; maxOutputBytes: number };

const iso = (d: Date | null) => d?.toISOString() ?? null;

function statusOf(t: Task, pollSeconds: number) {
  const done = isTerminalTaskStatus(t.status);
  return {
    task_id: t.id,
    tool: t.toolName,
    status: t.status,
    progress: t.progress,
    total: t.progressTotal,
    message: t.progressMessage,
    attempts: t.attempts,
    created_at: t.createdAt.toISOString(),
    started_at: iso(t.startedAt),
    finished_at: iso(t.finishedAt),
    error_code: t.errorCode,
    error_message: t.errorMessage,
    retry_after_seconds: done ? null : pollSeconds,
  };
}

function statusLine(s: ReturnType<typeof statusOf>): string {
  const progress = s.progress === null ? "" : ` — ${String(s.progress)}${s.total === null ? "" : ` of ${String(s.total)}`}${s.message ? `: ${s.message}` : ""}`;
  if (s.retry_after_seconds !== null) return `Task ${s.task_id} (${s.tool}) is ${s.status}${progress}. Ask again in about ${String(s.retry_after_seconds)} seconds.`;
  if (s.status === "SUCCEEDED") return `Task ${s.task_id} (${s.tool}) SUCCEEDED. Call get_task_result for its result.`;
  return `Task ${s.task_id} (${s.tool}) is ${s.status}${s.error_code ? ` (${s.error_code}: ${s.error_message ?? ""})` : ""}.`;
}

async function ownTask(db: Db, session: TaskToolSession, id: unknown): Promise<Task | null> {
  if (typeof id !== "string" || !id) return null;
  return db.task.findFirst({ where: { id, agentSessionId: session.agentSessionId } });
}

const notFound = (id: unknown) =>
  toolError("task_not_found", `There is no task ${typeof id === "string" ? id : "(no task_id given)"} in this session. list_my_tasks shows the session's tasks.`);

/** Splits a large result's text into pages of at most `pageBytes` UTF-8 bytes (never inside a character). */
export function pageText(text: string, pageBytes: number): string[] {
  const buf = Buffer.from(text, "utf8");
  const pages: string[] = [];
  let start = 0;
  while (start < buf.length) {
    let end = Math.min(buf.length, start + pageBytes);
    while (end < buf.length && end > start && ((buf[end] ?? 0) & 0xc0) === 0x80) end--; // continuation byte
    pages.push(buf.subarray(start, end).toString("utf8"));
    start = end;
  }
  return pages.length ? pages : [""];
}

/** A stored result, whole when it fits the output bound, else page `page` of its text. */
function resultPage(t: Task, page: number, maxOutputBytes: number): CallToolResult {
  const stored = (t.result ?? { content: [] }) as CallToolResult;
  const related = { [TASK_META]: { taskId: t.id, status: t.status }, "io.modelcontextprotocol/related-task": { taskId: t.id } };
  const tool = { gatewayName: "get_task_result", inputSchema: { properties: { page: {} } } } as unknown as ResolvedTool;
  if (Buffer.byteLength(JSON.stringify(stored)) <= maxOutputBytes && page === 1) return { ...stored, _meta: { ...stored._meta, ...related } };
  const text = (stored.content ?? []).map((c) => (c.type === "text" ? c.text : JSON.stringify(c))).join("\n");
  const pages = pageText(text, Math.floor(maxOutputBytes * 0.7));
  if (page > pages.length) return toolError("invalid_arguments", `Task ${t.id}'s result has ${String(pages.length)} page(s); page ${String(page)} does not exist.`);
  const more = page < pages.length ? ` Call get_task_result with {"task_id":"${t.id}","page":${String(page + 1)}} for the next.` : " This is the last page.";
  const body: CallToolResult = {
    content: [
      { type: "text", text: pages[page - 1] ?? "" },
      { type: "text", text: `[Portcullis: page ${String(page)} of ${String(pages.length)} of task ${t.id}'s result.${more}]` },
    ],
    ...(stored.isError && { isError: true }),
    _meta: { ...related, "portcullis/page": { page, pages: pages.length } },
  };
  return boundResult(body, maxOutputBytes, tool).result;
}

/** Answers a call of one of the task tools for `session`. */
export async function callTaskTool(deps: TaskToolDeps, ctx: RequestContext, session: TaskToolSession, name: TaskToolName, args: Record<string, unknown>): Promise<CallToolResult> {
  switch (name) {
    case "get_task_status": {
      const t = await ownTask(deps.db, session, args.task_id);
      if (!t) return notFound(args.task_id);
      const s = statusOf(t, deps.pollSeconds);
      return {
        content: [{ type: "text", text: statusLine(s) }],
        structuredContent: s,
        _meta: { [TASK_META]: { taskId: t.id, status: t.status, ...(s.retry_after_seconds !== null && { retryAfterSeconds: s.retry_after_seconds }) } },
      };
    }
    case "get_task_result": {
      const t = await ownTask(deps.db, session, args.task_id);
      if (!t) return notFound(args.task_id);
      const page = typeof args.page === "number" && Number.isInteger(args.page) && args.page >= 1 ? args.page : 1;
      if (t.result && (t.status === "SUCCEEDED" || t.status === "FAILED")) return resultPage(t, page, deps.maxOutputBytes);
      const s = statusOf(t, deps.pollSeconds);
      const why = s.retry_after_seconds !== null ? `has not finished yet` : `ended ${t.status}${t.errorCode ? ` (${t.errorCode}: ${t.errorMessage ?? ""})` : ""} without a result`;
      return {
        content: [{ type: "text", text: `Task ${t.id} ${why}.${s.retry_after_seconds !== null ? ` Ask get_task_status again in about ${String(s.retry_after_seconds)} seconds.` : ""}` }],
        ...(s.retry_after_seconds === null && t.status !== "SUCCEEDED" && { isError: true }),
        _meta: { [TASK_META]: { taskId: t.id, status: t.status, ...(s.retry_after_seconds !== null && { retryAfterSeconds: s.retry_after_seconds }) } },
      };
    }
    case "cancel_task": {
      const t = await ownTask(deps.db, session, args.task_id);
      if (!t) return notFound(args.task_id);
      try {
        const done = await cancelTask(deps.db, deps.audit, ctx, { userId: session.ownerId, role: "USER" }, t.id, "Canceled by the agent.");
        return { content: [{ type: "text", text: `Task ${t.id} is ${done.status}.` }], structuredContent: { task_id: t.id, status: done.status } };
      } catch (err) {
        if (isGatewayError(err) && err.code === "conflict") return toolError("task_finished", err.message);
        throw err;
      }
    }
    case "list_my_tasks": {
      const statuses = Array.isArray(args.status) ? args.status.filter((s): s is TTaskStatus => (TASK_STATUSES as readonly unknown[]).includes(s)) : undefined;
      const limit = typeof args.limit === "number" ? Math.min(100, Math.max(1, Math.floor(args.limit))) : 20;
      const rows = await deps.db.task.findMany({
        where: { agentSessionId: session.agentSessionId, origin: { not: CLAIM_ORIGIN }, ...(statuses?.length && { status: { in: statuses } }) },
        orderBy: [{ createdAt: "desc" }, { id: "desc" }],
        take: limit,
      });
      const tasks = rows.map((t) => statusOf(t, deps.pollSeconds));
      return {
        content: [{ type: "text", text: tasks.length ? tasks.map(statusLine).join("\n") : "This session has no tasks." }],
        structuredContent: { tasks },
      };
    }
  }
}

// ── MCP tasks utility (protocol 2025-11-25) ─────────────────────────────────────────────────────────────

const MCP_STATUS: Record<string, McpTask["status"]> = {
  PENDING: "working",
  AWAITING_APPROVAL: "working",
  RUNNING: "working",
  SUCCEEDED: "completed",
  FAILED: "failed",
  EXPIRED: "failed",
  CANCELED: "cancelled",
};

export function toMcpTask(t: Task, pollSeconds: number): McpTask {
  const message = t.status === "RUNNING" && t.progressMessage ? t.progressMessage : t.errorMessage ?? (t.status === "AWAITING_APPROVAL" ? "awaiting approval" : undefined);
  return {
    taskId: t.id,
    status: MCP_STATUS[t.status] ?? "working",
    ttl: t.expiresAt ? Math.max(0, t.expiresAt.getTime() - t.createdAt.getTime()) : null,
    createdAt: t.createdAt.toISOString(),
    lastUpdatedAt: t.updatedAt.toISOString(),
    pollInterval: pollSeconds * 1000,
    ...(message && { statusMessage: message }),
  };
}

/** The SDK's task store over our task rows, for one agent session (a Server is built per request). */
export function mcpTaskStore(deps: TaskToolDeps, ctx: RequestContext, session: TaskToolSession): TaskStore {
  const own = async (taskId: string) => {
    const t = await ownTask(deps.db, session, taskId);
    if (!t) throw new McpError(ErrorCode.InvalidParams, `Task not found: ${taskId}`);
    return t;
  };
  return {
    createTask: () => Promise.reject(new Error("tasks are created by the gateway pipeline")),
    storeTaskResult: () => Promise.reject(new Error("task results are stored by the task engine")),
    async getTask(taskId) {
      const t = await ownTask(deps.db, session, taskId);
      return t ? toMcpTask(t, deps.pollSeconds) : null;
    },
    async getTaskResult(taskId) {
      const t = await own(taskId);
      if (t.result) return resultPage(t, 1, deps.maxOutputBytes);
      return toolError("task_finished", `Task ${t.id} ended ${t.status}${t.errorCode ? ` (${t.errorCode}: ${t.errorMessage ?? ""})` : ""} without a result.`);
    },
    async updateTaskStatus(taskId, status) {
      const t = await own(taskId);
      if (status !== "cancelled") throw new McpError(ErrorCode.InvalidParams, "Only cancellation can be requested.");
      await cancelTask(deps.db, deps.audit, ctx, { userId: session.ownerId, role: "USER" }, t.id, "Canceled by the client (tasks/cancel).");
    },
    async listTasks(cursor) {
      const rows = await deps.db.task.findMany({
        where: { agentSessionId: session.agentSessionId, origin: { not: CLAIM_ORIGIN } },
        orderBy: [{ createdAt: "desc" }, { id: "desc" }],
        take: 51,
        ...(cursor ? { cursor: { id: cursor }, skip: 1 } : {}),
      });
      const page = rows.slice(0, 50);
      return { tasks: page.map((t) => toMcpTask(t, deps.pollSeconds)), ...(rows.length > 50 && { nextCursor: page.at(-1)!.id }) };
    },
  };
}

// ── what both MCP endpoints share ───────────────────────────────────────────────────────────────────────

const MAX_IDEMPOTENCY_KEY = 200;

/** The task context of a tools/call from an agent session (none outside agent sessions). */
export function taskContextOf(
  grant: { userId: string; agentSessionId: string | null },
  endpoint: string,
  params: { _meta?: Record<string, unknown> | undefined; task?: { ttl?: number | null | undefined } | undefined },
): import("./task-engine").TaskContext | undefined {
  if (!grant.agentSessionId) return undefined;
  const key = params._meta?.idempotencyKey;
  if (key !== undefined && (typeof key !== "string" || key.length === 0 || key.length > MAX_IDEMPOTENCY_KEY)) {
    throw new McpError(ErrorCode.InvalidParams, `_meta.idempotencyKey must be a non-empty string of at most ${String(MAX_IDEMPOTENCY_KEY)} characters.`);
  }
  return { ownerId: grant.userId, agentSessionId: grant.agentSessionId, endpoint, ...(key && { idempotencyKey: key }), ...(params.task && { mcpTask: params.task }) };
}

/**
 * For a client that asked for an MCP task: the CreateTaskResult of the task the call became. A call refused
 * before it became a task is answered with a JSON-RPC error carrying the refusal.
 */
export async function asCreateTaskResult(db: Db, result: CallToolResult, pollSeconds: number): Promise<{ task: McpTask }> {
  const taskId = (result._meta?.[TASK_META] as { taskId?: string } | undefined)?.taskId;
  const row = taskId ? await db.task.findUnique({ where: { id: taskId } }) : null;
  if (!row) {
    const text = (result.content ?? []).find((c) => c.type === "text")?.text ?? "The call was refused.";
    throw new McpError(ErrorCode.InvalidParams, text, result._meta?.["portcullis/error"]);
  }
  return { task: toMcpTask(row, pollSeconds) };
}

export const TASK_CAPABILITIES = { list: {}, cancel: {}, requests: { tools: { call: {} } } };
