// The audit detail page shows stored enum values by their labels (lib/status-labels.ts), never raw, and names
// the agent of every step that has one.
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import type { TAuditEvent, TAuditEventDetail } from "@/lib/audit-schemas";
import { EventPage } from "./audit-event-detail";

const event = (over: Partial<TAuditEvent>): TAuditEvent => ({
  id: "1",
  occurredAt: "2026-12-01T10:00:00.000Z",
  requestId: "req-1",
  action: "tool.called",
  category: "gateway",
  actorType: "user",
  userId: "u1",
  userEmail: "agent-owner@example.com",
  agentId: "claude-desktop",
  sessionId: "sess-1",
  mcpSessionId: null,
  endpoint: "mcp",
  serverSlug: "orders",
  toolName: "orders__delete",
  targetType: "tool",
  targetId: null,
  arguments: {},
  intent: null,
  decision: "require_approval",
  ruleId: null,
  reason: null,
  status: "held",
  errorCode: null,
  durationMs: 12,
  resultBytes: null,
  truncated: false,
  upstreamVersion: null,
  approvalId: "a1",
  taskId: "t1",
  parentId: null,
  ip: null,
  details: null,
  ...over,
});

const detail: TAuditEventDetail = {
  event: event({}),
  story: [event({}), event({ id: "2", action: "task.succeeded", status: "ok", decision: "allow", agentId: "claude-desktop" })],
  approval: {
    id: "a1",
    kind: "CALL",
    status: "USED",
    toolName: "orders__delete",
    requesterEmail: "agent-owner@example.com",
    requiredApprovals: 1,
    justification: null,
    createdAt: "2026-12-01T10:00:00.000Z",
    decidedAt: "2026-12-01T10:01:00.000Z",
    decisionComment: null,
    decisions: [{ approverEmail: "approver@example.com", decision: "approve", comment: null, at: "2026-12-01T10:01:00.000Z" }],
  },
  task: { id: "t1", status: "SUCCEEDED", toolName: "orders__delete", origin: "approval", createdAt: "2026-12-01T10:01:00.000Z", startedAt: "2026-12-01T10:01:01.000Z", finishedAt: "2026-12-01T10:01:02.000Z", errorCode: null },
};

describe("the audit event detail page", () => {
  const html = renderToStaticMarkup(<EventPage detail={detail} />);
  const text = html.replace(/<[^>]+>/g, " ");

  it("shows the approval's and the task's status, and each decision, by their labels", () => {
    for (const raw of ["USED", "SUCCEEDED", "CANCELED", "approve by", "require_approval"]) expect(text).not.toContain(raw);
    expect(text).toContain("Approved by approver@example.com");
    expect(text).toContain("Succeeded");
    expect(text).toContain("High-risk call, held for approval");
    expect(text).toContain("Needs approval");
  });

  it("names the agent in the summary and in the steps", () => {
    expect(text).not.toMatch(/Agent\s+—/);
    expect(text.match(/claude-desktop/g)?.length).toBeGreaterThanOrEqual(3);
  });
});
