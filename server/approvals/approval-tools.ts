// The approval tools every MCP endpoint offers to agent sessions: `request_approval` asks a person ahead of
// time for one call (tool, exact arguments, justification); `get_approval_status` says where it stands. A
// request goes through the same checks as the call itself (whitelist, tier, rules, schema), so an approver
// never sees a request for something the session could not do anyway.
import type { CallToolResult, Tool } from "@modelcontextprotocol/sdk/types.js";
import { APPROVAL_STATUSES } from "../../lib/approval-schemas";
import type { RequestContext } from "../context";
import type { Approval } from "../db/client";
import { authorize } from "../pipeline/authorize";
import { toolError } from "../pipeline/tool-error";
import { compose, type ToolCall } from "../pipeline/types";
import type { CallNotes, ResolvedTool } from "../pipeline/types";
import { validateArguments } from "../pipeline/validate-arguments";
import type { SessionGrant } from "../policy/evaluate";
import type { PolicyCache } from "../policy/policy-cache";
import type { TaskContext } from "../tasks/task-engine";
import { APPROVAL_META, type Approvals } from "./approvals";
import { invalidToolNameReason, printableToolName } from "../registry/gateway-name";

export const APPROVAL_TOOL_NAMES = ["request_approval", "get_approval_status"] as const;
export type ApprovalToolName = (typeof APPROVAL_TOOL_NAMES)[number];
export const isApprovalTool = (name: string): name is ApprovalToolName => (APPROVAL_TOOL_NAMES as readonly string[]).includes(name);

const STATUS_SCHEMA = {
  type: "object",
  properties: {
    approval_id: { type: ["string", "null"] },
    status: { type: "string", enum: [...APPROVAL_STATUSES, "NOT_REQUIRED"] },
    tool: { type: "string" },
    expires_at: { type: ["string", "null"] },
    decided_at: { type: ["string", "null"] },
    comment: { type: ["string", "null"] },
    task_id: { type: ["string", "null"] },
  },
  required: ["approval_id", "status", "tool"],
} as const;

export function approvalToolDefinitions(): Tool[] {
  return [
    {
      name: "request_approval",
      title: "Ask a person to approve an operation",
      description:
        "Ask ahead of time for permission to make one high-risk call: give the tool, the exact arguments you will call it with, and why. A person decides; poll get_approval_status (about every 30 seconds). Once APPROVED, call the tool with exactly those arguments from this session before the approval expires: it runs once. Other arguments, another session or a second call need a new approval. Calling a high-risk tool directly also works: the call is held for approval and runs as a task.",
      inputSchema: {
        type: "object",
        properties: {
          tool: { type: "string", minLength: 1, description: "The tool's name as tools/list shows it" },
          arguments: { type: "object", description: "The exact arguments of the call", additionalProperties: true },
          justification: { type: "string", minLength: 1, maxLength: 2000, description: "Why this operation is needed, for the approver" },
        },
        required: ["tool", "arguments", "justification"],
        additionalProperties: false,
      },
      outputSchema: STATUS_SCHEMA as unknown as Tool["outputSchema"],
      annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    },
    {
      name: "get_approval_status",
      title: "Approval status",
      description: "Where an approval request stands: PENDING, APPROVED (call the tool now, with exactly the approved arguments), USED, REJECTED (with the approver's comment), EXPIRED or CANCELED.",
      inputSchema: {
        type: "object",
        properties: { approval_id: { type: "string", description: "The id request_approval (or a held call) answered with" } },
        required: ["approval_id"],
        additionalProperties: false,
      },
      outputSchema: STATUS_SCHEMA as unknown as Tool["outputSchema"],
      annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
    },
  ];
}

export type ApprovalToolDeps = {
  approvals: Approvals;
  policy: PolicyCache;
  /** The tool as the endpoint names it (`<server>__<tool>` on /mcp, the server's own name on /mcp/s/<slug>). */
  resolve: (name: string) => Promise<ResolvedTool | { error: string }>;
};

function statusOf(a: Approval, shownName: string) {
  return {
    approval_id: a.id,
    status: a.status,
    tool: shownName,
    expires_at: a.expiresAt.toISOString(),
    decided_at: a.decidedAt?.toISOString() ?? null,
    comment: a.decisionComment,
    task_id: a.taskId,
  };
}

function statusLine(s: ReturnType<typeof statusOf>): string {
  switch (s.status) {
    case "PENDING":
      return `Approval ${s.approval_id} for ${s.tool} is PENDING: a person has not decided yet. Ask again in about 30 seconds; it expires at ${s.expires_at ?? "?"}.`;
    case "APPROVED":
      return `Approval ${s.approval_id} for ${s.tool} is APPROVED${s.comment ? ` (${s.comment})` : ""}. Call ${s.tool} now with exactly the approved arguments, from this session, before ${s.expires_at ?? "it expires"}; it runs once.`;
    case "USED":
      return `Approval ${s.approval_id} for ${s.tool} has been used${s.task_id ? ` (task ${s.task_id})` : ""}; another call needs a new approval.`;
    case "REJECTED":
      return `Approval ${s.approval_id} for ${s.tool} was REJECTED${s.comment ? `: ${s.comment}` : ""}. Do not make this call.`;
    default:
      return `Approval ${s.approval_id} for ${s.tool} is ${s.status}; it can no longer be used.`;
  }
}

const answer = (s: ReturnType<typeof statusOf>): CallToolResult => ({
  content: [{ type: "text", text: statusLine(s) }],
  structuredContent: s,
  _meta: { [APPROVAL_META]: { approvalId: s.approval_id, status: s.status } },
});

/** Answers a call of one of the approval tools for an agent session's grant. */
export async function callApprovalTool(
  deps: ApprovalToolDeps,
  ctx: RequestContext,
  grant: SessionGrant,
  tc: TaskContext,
  name: ApprovalToolName,
  args: Record<string, unknown>,
): Promise<CallToolResult> {
  if (name === "get_approval_status") {
    const id = typeof args.approval_id === "string" ? args.approval_id : "";
    const a = id ? await deps.approvals.ownApproval(tc.agentSessionId, id) : null;
    if (!a) return toolError("approval_not_found", `There is no approval ${id || "(no approval_id given)"} in this session.`);
    return answer(statusOf(a, a.toolName));
  }

  const toolName = typeof args.tool === "string" ? args.tool : "";
  const justification = typeof args.justification === "string" ? args.justification.trim() : "";
  const callArgs = args.arguments;
  if (!toolName || !justification || typeof callArgs !== "object" || callArgs === null || Array.isArray(callArgs)) {
    return toolError("invalid_arguments", "request_approval needs `tool` (a tool name), `arguments` (an object: the exact arguments) and `justification` (why, for the approver).");
  }
  // The named tool is looked up and stored with the approval: a name that cannot name a tool stops here.
  const malformed = invalidToolNameReason(toolName);
  if (malformed) return toolError("invalid_tool_name", `The tool name "${printableToolName(toolName)}" ${malformed}.`);
  const resolved = await deps.resolve(toolName);
  if ("error" in resolved) return toolError("unknown_tool", resolved.error);

  // The call's own checks, without running it: whitelist → tier → rules → schema. What reaches the end is
  // the call as it would run (rules may have capped arguments); a refusal comes back as the call's would.
  let checked: ToolCall | undefined;
  const call: ToolCall = { tool: resolved, arguments: callArgs as Record<string, unknown>, endpoint: "mcp", grant, task: tc, signal: AbortSignal.timeout(30_000) };
  const notes: CallNotes = {};
  const refusal = await compose(authorize(deps.policy, true), validateArguments())((c) => {
    checked = c;
    return Promise.resolve({ content: [] });
  })(call, ctx, notes);
  if (!checked) return refusal;
  if (!checked.approval) {
    return {
      content: [{ type: "text", text: `${toolName} needs no approval for this session: call it directly.` }],
      structuredContent: { approval_id: null, status: "NOT_REQUIRED", tool: toolName, expires_at: null, decided_at: null, comment: null, task_id: null },
    };
  }
  const a = await deps.approvals.requestAdvance(checked, tc, ctx, checked.approval, justification);
  return answer(statusOf(a, toolName));
}
