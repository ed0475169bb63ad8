// The row of a new approval request: who asks, for which call (arguments kept whole, redacted and hashed), why.
import { redactor } from "../audit/redaction";
import { toJson } from "../db/client";
import { storableText } from "../db/storable";
import type { TaskContext, ToolCall } from "../pipeline/types";
import { hashArguments } from "../tasks/hash-arguments";
import type { ApprovalScope, HoldReason } from "./approval-scope";

/** The columns every request (held call or request_approval) starts with. */
export function approvalRow(s: ApprovalScope, call: ToolCall, tc: TaskContext, why: HoldReason, justification: string | null) {
  const { opts } = s;
  return {
    requesterId: tc.ownerId,
    agentSessionId: tc.agentSessionId,
    agentId: call.grant?.agentId ?? null,
    toolId: call.tool.id,
    toolName: call.tool.gatewayName,
    arguments: toJson(call.arguments),
    argumentsRedacted: toJson(redactor().value(call.arguments)),
    argumentsHash: hashArguments(call.arguments),
    // The caller's own words: made storable (NUL, lone surrogates) as the audit row's intent is.
    justification: justification === null ? null : storableText(justification, 2000).text,
    ruleId: why.ruleId ?? null,
    reason: why.reason.slice(0, 2000),
    requiredApprovals: Math.min(2, Math.max(1, call.tool.requiredApprovals ?? 1)),
    expiresAt: new Date(Date.now() + opts.ttlMs),
  };
}
