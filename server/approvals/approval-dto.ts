// An approval row as the API shows it (lib/approval-schemas.ts): the justification redacted, and whether the
// viewer may decide it.
import type { TApproval } from "../../lib/approval-schemas";
import { redactor } from "../audit/redaction";
import type { Approval, Prisma, Task } from "../db/client";
import { isApprover, type ApprovalViewer } from "./approval-scope";

export type ApprovalRow = Approval & {
  requester: { email: string };
  agentSession: { agentId: string; prefix: string } | null;
  tool: { riskTier: "LOW" | "MEDIUM" | "HIGH"; inputSchema?: unknown } | null;
  task: { status: Task["status"] } | null;
  decisions: { approverId: string; decision: string; comment: string | null; createdAt: Date; approver: { email: string } }[];
};

export const APPROVAL_INCLUDE = {
  requester: { select: { email: true } },
  agentSession: { select: { agentId: true, prefix: true } },
  tool: { select: { riskTier: true } },
  task: { select: { status: true } },
  decisions: { include: { approver: { select: { email: true } } }, orderBy: { createdAt: "asc" } },
} as const satisfies Prisma.ApprovalInclude;

export function toApprovalDto(a: ApprovalRow, viewer?: ApprovalViewer): TApproval {
  return {
    id: a.id,
    kind: a.kind,
    status: a.status,
    tool: a.toolName,
    riskTier: a.tool?.riskTier ?? null,
    reason: a.reason,
    ruleId: a.ruleId,
    requesterId: a.requesterId,
    requesterEmail: a.requester.email,
    agentId: a.agentId ?? a.agentSession?.agentId ?? null,
    agentSessionId: a.agentSessionId,
    agentSessionPrefix: a.agentSession?.prefix ?? null,
    justification: a.justification === null ? null : redactor().text(a.justification),
    arguments: (a.argumentsRedacted ?? {}) as Record<string, unknown>,
    argumentsHash: a.argumentsHash,
    requiredApprovals: a.requiredApprovals,
    decisions: a.decisions.map((d) => ({
      approverId: d.approverId,
      approverEmail: d.approver.email,
      decision: d.decision === "reject" ? "reject" : "approve",
      comment: d.comment,
      at: d.createdAt.toISOString(),
    })),
    taskId: a.taskId,
    taskStatus: a.task?.status ?? null,
    createdAt: a.createdAt.toISOString(),
    expiresAt: a.expiresAt.toISOString(),
    decidedAt: a.decidedAt?.toISOString() ?? null,
    decisionComment: a.decisionComment,
    standingUntil: a.standingUntil?.toISOString() ?? null,
    usedAt: a.usedAt?.toISOString() ?? null,
    canDecide:
      !!viewer &&
      isApprover(viewer.role) &&
      a.status === "PENDING" &&
      a.requesterId !== viewer.userId &&
      !a.decisions.some((d) => d.approverId === viewer.userId),
  };
}
