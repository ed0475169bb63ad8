// The approval DTO alone (no database): who may decide a request, as the console's buttons show it.
import { describe, expect, it } from "vitest";
import type { Role } from "../db/client";
import { toApprovalDto, type ApprovalRow } from "./approval-dto";

const at = new Date("2026-01-01T00:00:00Z");
function row(over: Partial<ApprovalRow> = {}): ApprovalRow {
  return {
    id: "a1", kind: "CALL", status: "PENDING", requesterId: "requester", agentSessionId: "s1", agentId: "bot", toolId: "t1", toolName: "shop__delete",
    arguments: { id: 1 }, argumentsRedacted: { id: 1 }, argumentsHash: "h", justification: "mail me at someone@example.com", ruleId: null, reason: "HIGH tier",
    requiredApprovals: 2, expiresAt: at, standingUntil: null, decidedAt: null, decisionComment: null, usedAt: null, taskId: "task1", createdAt: at, updatedAt: at,
    requester: { email: "r@example.com" }, agentSession: { agentId: "bot", prefix: "pcs_ab" }, tool: { riskTier: "HIGH" }, task: { status: "AWAITING_APPROVAL" },
    decisions: [{ approverId: "first", decision: "approve", comment: null, createdAt: at, approver: { email: "first@example.com" } }],
    ...over,
  };
}
const viewer = (userId: string, role: Role) => ({ userId, role });

describe("toApprovalDto", () => {
  it.each([
    ["an approver who has not decided it", viewer("other", "APPROVER"), row(), true],
    ["an admin", viewer("other", "ADMIN"), row(), true],
    ["a user", viewer("other", "USER"), row(), false],
    ["its requester, even an approver", viewer("requester", "APPROVER"), row(), false],
    ["the approver who already approved it", viewer("first", "APPROVER"), row(), false],
    ["an approver, once it is decided", viewer("other", "APPROVER"), row({ status: "REJECTED" }), false],
    ["nobody in particular", undefined, row(), false],
  ] as const)("canDecide for %s", (_who, v, r, expected) => {
    expect(toApprovalDto(r, v).canDecide).toBe(expected);
  });

  it("redacts the justification and names the deciders", () => {
    const dto = toApprovalDto(row());
    expect(dto.justification).not.toContain("someone@example.com");
    expect(dto.decisions).toEqual([{ approverId: "first", approverEmail: "first@example.com", decision: "approve", comment: null, at: at.toISOString() }]);
  });
});
