// request_approval: an agent asks ahead for one call with exactly these arguments (one request per call).
import type { RequestContext } from "../context";
import type { Approval } from "../db/client";
import { publishChange } from "../events/change-bus";
import type { TaskContext, ToolCall } from "../pipeline/types";
import { hashArguments } from "../tasks/hash-arguments";
import { lockClaim } from "../tasks/lock-claim";
import { approvalRow } from "./approval-row";
import type { ApprovalScope, HoldReason } from "./approval-scope";
import { auditApproval } from "./audit-approval";
import { notifyApprovers } from "./notify-approvers";

/** request_approval: asks ahead for one call of `call.tool` with exactly `call.arguments`. */
export async function requestAdvance(s: ApprovalScope, call: ToolCall, tc: TaskContext, ctx: RequestContext, why: HoldReason, justification: string): Promise<Approval> {
  const { db } = s;
  const hash = hashArguments(call.arguments);
  const asked = await db.$transaction(async (tx) => {
    await lockClaim(tx, ["advance", tc.agentSessionId, call.tool.gatewayName, hash]);
    const waiting = await tx.approval.findFirst({
      where: { kind: "ADVANCE", status: { in: ["PENDING", "APPROVED"] }, agentSessionId: tc.agentSessionId, toolName: call.tool.gatewayName, argumentsHash: hash, expiresAt: { gt: new Date() } },
      orderBy: { createdAt: "desc" },
    });
    if (waiting) return { approval: waiting, created: false };
    const a = await tx.approval.create({ data: { ...approvalRow(s, call, tc, why, justification), kind: "ADVANCE" } });
    await notifyApprovers(s, tx, a);
    await publishChange(tx, { kind: "approval", approvalId: a.id, status: a.status });
    // The request's event commits with it (D93).
    await auditApproval(s, { action: "approval.requested", reason: a.reason, decision: "require_approval", endpoint: tc.endpoint }, a, ctx, tx);
    return { approval: a, created: true };
  });
  return asked.approval;
}
