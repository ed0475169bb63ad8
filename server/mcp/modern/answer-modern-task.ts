// tasks/get, tasks/update and tasks/cancel of the tasks extension, answered from the durable task rows (the same
// rows get_task_status, the 2025 tasks utility and the console read). A task is only ever found for the agent
// session and user that created it: an unknown id and another session's id get the same answer, so task ids are
// never confirmed to anyone else. The declared extension is checked first, then the id's shape, then the row.
import type { Task } from "../../db/client";
import { isGatewayError } from "../../errors";
import { cancelTask } from "../../tasks/cancel-task";
import { CLAIM_ORIGIN } from "../../tasks/claim-origin";
import type { JsonAnswer } from "../mcp-request";
import { modernMessage } from "./modern-message";
import { META } from "./modern-protocol";
import { modernRefusalResponse, type ModernMessage } from "./modern-request-refusal";
import { approvalInputKey, detailedTask, type AwaitingApproval } from "./modern-task";
import { declaresTasks, missingTasksExtension, type ModernTaskDeps, type TaskOwner } from "./tasks-extension";
import { answeredInput, answerInput } from "./task-input";

/** Our task ids are cuids; anything else is not one of ours, whatever its length. */
const TASK_ID = /^[A-Za-z0-9_-]{1,64}$/;

const invalid = (message: ModernMessage, text: string, data: Record<string, unknown>): JsonAnswer => ({
  status: 200,
  json: JSON.stringify({ jsonrpc: "2.0", id: message.id, error: { code: -32602, message: `Invalid params: ${text}`, data } }),
});

const ok = (deps: ModernTaskDeps, message: ModernMessage, result: Record<string, unknown>): JsonAnswer => ({
  status: 200,
  json: JSON.stringify(modernMessage({ jsonrpc: "2.0", id: message.id, result }, message, deps.serverInfo)),
});

async function awaitingApproval(deps: ModernTaskDeps, t: Task): Promise<AwaitingApproval> {
  if (t.status !== "AWAITING_APPROVAL") return null;
  const a = await deps.db.approval.findFirst({ where: { taskId: t.id, status: "PENDING" }, select: { id: true, expiresAt: true } });
  return a && { approvalId: a.id, expiresAt: a.expiresAt, url: new URL(`/approvals/${a.id}`, deps.publicUrl).toString() };
}

export async function answerModernTask(deps: ModernTaskDeps, message: ModernMessage, owner: TaskOwner): Promise<Response | JsonAnswer> {
  const meta = message.params._meta;
  if (!declaresTasks(meta)) return modernRefusalResponse(missingTasksExtension(`${message.method} is a method of the tasks extension`), message.id);
  const taskId = message.params.taskId;
  if (typeof taskId !== "string" || !TASK_ID.test(taskId)) {
    return invalid(message, "taskId must be the id of a task (a string of at most 64 letters, digits, - or _)", { code: "invalid_task_id" });
  }
  const t = await deps.db.task.findFirst({ where: { id: taskId, agentSessionId: owner.agentSessionId, ownerId: owner.ownerId, origin: { not: CLAIM_ORIGIN } } });
  if (!t) return invalid(message, `Task not found: ${taskId}`, { code: "task_not_found", taskId });

  if (message.method === "tasks/get") {
    const awaiting = await awaitingApproval(deps, t);
    const answered = awaiting ? await answeredInput(deps.db, t.id, approvalInputKey(awaiting.approvalId)) : false;
    const elicitation = (meta[META.clientCapabilities] as { elicitation?: { url?: unknown } }).elicitation;
    return ok(deps, message, detailedTask(t, { pollSeconds: deps.pollSeconds, awaiting, answered, urlElicitation: elicitation?.url !== undefined }));
  }
  if (message.method === "tasks/update") {
    const responses = message.params.inputResponses;
    if (typeof responses !== "object" || responses === null || Array.isArray(responses)) {
      return invalid(message, "inputResponses must be an object of answers keyed by the task's inputRequests", { code: "invalid_input_responses" });
    }
    const awaiting = await awaitingApproval(deps, t);
    const key = awaiting && approvalInputKey(awaiting.approvalId);
    // Answers to keys that are not outstanding are ignored, as the extension says.
    if (key && key in responses) await answerInput(deps, owner, t, key, (responses as Record<string, unknown>)[key]);
    return ok(deps, message, {});
  }
  // tasks/cancel: acknowledged whatever the task's state; a finished task stays as it ended.
  try {
    await cancelTask(deps.db, deps.audit, owner.ctx, { userId: owner.ownerId, role: "USER" }, t.id, "Canceled by the client (tasks/cancel).");
  } catch (err) {
    if (!(isGatewayError(err) && err.code === "conflict")) throw err;
  }
  return ok(deps, message, {});
}
