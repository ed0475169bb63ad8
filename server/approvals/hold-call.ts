// A HIGH-tier call of an agent session is not run: it is held as an approval request plus a task
// AWAITING_APPROVAL, and the agent is answered at once with both ids (two identical calls make one request).
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import type { RequestContext } from "../context";
import type { Approval, Task } from "../db/client";
import { publishChange } from "../events/change-bus";
import type { CallNotes, TaskContext, ToolCall } from "../pipeline/types";
import { hashArguments } from "../tasks/hash-arguments";
import { lockClaim } from "../tasks/lock-claim";
import { TASK_META } from "../tasks/task-switch";
import { approvalRow } from "./approval-row";
import { APPROVAL_META, type ApprovalScope, type HoldReason } from "./approval-scope";
import { auditApproval } from "./audit-approval";
import { notifyApprovers } from "./notify-approvers";

function heldAnswer(s: ApprovalScope, a: Approval, task: Pick<Task, "id" | "status">, replay: boolean): CallToolResult {
  const { engine } = s;
  const lead = replay
    ? `This call is already waiting for approval ${a.id}; it was not submitted again.`
    : `${a.toolName} is high-risk: it was not run. A person must approve it first (approval ${a.id}${a.requiredApprovals > 1 ? `, ${String(a.requiredApprovals)} approvers` : ""}).`;
  return {
    content: [
      {
        type: "text",
        text: `${lead} Once approved it runs as task ${task.id} with exactly these arguments. Follow it with get_task_status {"task_id":"${task.id}"} about every ${String(engine.options.pollSeconds)} seconds (AWAITING_APPROVAL until someone decides), then get_task_result. If nobody decides by ${a.expiresAt.toISOString()} it expires.`,
      },
    ],
    structuredContent: { task_id: task.id, status: task.status, approval_id: a.id, approval_status: a.status, expires_at: a.expiresAt.toISOString() },
    _meta: {
      [TASK_META]: { taskId: task.id, status: task.status, retryAfterSeconds: engine.options.pollSeconds, handle: true, ...(replay && { replay: true }) },
      [APPROVAL_META]: { approvalId: a.id, status: a.status },
    },
  };
}

/** Holds a HIGH-tier call of an agent session: an approval request and its task, answered at once. */
export async function holdCall(s: ApprovalScope, call: ToolCall, tc: TaskContext, ctx: RequestContext, notes: CallNotes, why: HoldReason): Promise<CallToolResult> {
  const { db, engine } = s;
  const hash = hashArguments(call.arguments);
  const intent = typeof call.meta?.intent === "string" ? call.meta.intent : null;
  // Look and insert under one lock: two identical calls racing (on any processes) make one request.
  const held = await db.$transaction(async (tx) => {
    await lockClaim(tx, ["hold", tc.agentSessionId, call.tool.gatewayName, hash]);
    const waiting = await tx.approval.findFirst({
      where: { kind: "CALL", status: "PENDING", agentSessionId: tc.agentSessionId, toolName: call.tool.gatewayName, argumentsHash: hash, expiresAt: { gt: new Date() } },
      include: { task: true },
      orderBy: { createdAt: "desc" },
    });
    if (waiting?.task) return { approval: waiting, task: waiting.task, replay: true };
    const t = await engine.createAwaiting(tx, call, tc, ctx);
    const a = await tx.approval.create({ data: { ...approvalRow(s, call, tc, why, intent), kind: "CALL", taskId: t.id } });
    await notifyApprovers(s, tx, a);
    await publishChange(tx, { kind: "approval", approvalId: a.id, status: a.status });
    // The request's event commits with it (D93).
    await auditApproval(s, { action: "approval.requested", reason: a.reason, decision: "require_approval" }, a, ctx, tx);
    return { approval: a, task: t, replay: false };
  });
  notes.approvalId = held.approval.id;
  notes.taskId = held.task.id;
  return heldAnswer(s, held.approval, held.task, held.replay);
}
