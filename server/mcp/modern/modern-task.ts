// A durable task row as the tasks extension shows it (SEP-2663's Task and DetailedTask): the row's status mapped
// onto working / input_required / completed / failed / cancelled, the stored result or the error inlined.
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import type { Task } from "../../db/client";
import { TASK_META } from "../../tasks/task-switch";

export type ModernTaskStatus = "working" | "input_required" | "completed" | "failed" | "cancelled";

/** What an approver's decision looks like to the client while a held call waits (a URL it may open, or nothing). */
export type AwaitingApproval = { approvalId: string; url: string; expiresAt: Date } | null;

type View = { pollSeconds: number; awaiting: AwaitingApproval; answered: boolean; urlElicitation: boolean };

/** JSON-RPC's internal error: a task that ended without a result ended with a fault, not a tool's answer. */
const INTERNAL_ERROR = -32603;

/** The key of a held call's input request: unique over the task's life (one approval per held call). */
export const approvalInputKey = (approvalId: string) => `approval-${approvalId}`;

/** The Task fields every shape carries: ids, times, TTL and polling as integer milliseconds. */
export function taskBase(t: Task, status: ModernTaskStatus, pollSeconds: number, statusMessage?: string | null): Record<string, unknown> {
  const ttl = t.expiresAt ? t.expiresAt.getTime() - t.createdAt.getTime() : null;
  return {
    taskId: t.id,
    status,
    ...(statusMessage && { statusMessage }),
    createdAt: t.createdAt.toISOString(),
    lastUpdatedAt: t.updatedAt.toISOString(),
    ttlMs: ttl !== null && ttl > 0 ? Math.ceil(ttl) : null,
    pollIntervalMs: Math.max(1, Math.round(pollSeconds * 1000)),
  };
}

/** The stored CallToolResult without the 2025 task bookkeeping (the taskId is the envelope's). */
function inlinedResult(stored: unknown): Record<string, unknown> {
  const r = stored as CallToolResult;
  const { [TASK_META]: _task, "io.modelcontextprotocol/related-task": _related, ...meta } = (r._meta ?? {}) as Record<string, unknown>;
  const { _meta: _dropped, ...rest } = r;
  return { ...rest, content: r.content ?? [], ...(Object.keys(meta).length > 0 && { _meta: meta }) };
}

/**
 * The DetailedTask of `t`. A held call (AWAITING_APPROVAL) is `input_required` with one URL-mode elicitation (the
 * approval page) for a client that can take one and has not answered it yet, else `working`; both say "awaiting
 * approval". A tool's error answer is `completed` with `isError` (the spec keeps `failed` for JSON-RPC errors).
 */
export function detailedTask(t: Task, view: View): Record<string, unknown> {
  switch (t.status) {
    case "PENDING":
    case "RUNNING":
      return taskBase(t, "working", view.pollSeconds, t.status === "RUNNING" ? t.progressMessage : null);
    case "AWAITING_APPROVAL": {
      const a = view.awaiting;
      if (!a || view.answered || !view.urlElicitation) return taskBase(t, "working", view.pollSeconds, "awaiting approval");
      const message = `${t.toolName} is high-risk and waits for a person's approval (approval ${a.approvalId}, until ${a.expiresAt.toISOString()}). The approval page shows the request; the task goes on once it is decided.`;
      const request = { method: "elicitation/create", params: { mode: "url", elicitationId: a.approvalId, url: a.url, message } };
      return { ...taskBase(t, "input_required", view.pollSeconds, "awaiting approval"), inputRequests: { [approvalInputKey(a.approvalId)]: request } };
    }
    case "SUCCEEDED":
    case "FAILED":
      if (t.result) return { ...taskBase(t, "completed", view.pollSeconds), result: inlinedResult(t.result) };
      return failed(t, view.pollSeconds);
    case "EXPIRED":
      return failed(t, view.pollSeconds);
    case "CANCELED":
      return taskBase(t, "cancelled", view.pollSeconds, t.errorMessage);
  }
}

function failed(t: Task, pollSeconds: number): Record<string, unknown> {
  const message = t.errorMessage ?? `The task ended ${t.status}`;
  return { ...taskBase(t, "failed", pollSeconds, message), error: { code: INTERNAL_ERROR, message, data: { code: t.errorCode ?? "internal" } } };
}

/**
 * The CreateTaskResult of a task just created (flat Result & Task, no result, error or input requests). Its seed
 * state is `working`, a held call's too ("awaiting approval"): its input request is read with tasks/get.
 */
export function createTaskResult(t: Task, pollSeconds: number): Record<string, unknown> {
  return { resultType: "task", ...taskBase(t, "working", pollSeconds, t.status === "AWAITING_APPROVAL" ? "awaiting approval" : null) };
}
