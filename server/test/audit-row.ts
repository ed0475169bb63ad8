// An audit row as the pipeline would hand it to the writer, for tests that drive the writer directly.
import type { AuditRow } from "../audit/audit-writer";

export const auditRow = (toolName: string, extra: Partial<AuditRow> = {}): AuditRow => ({
  requestId: `w-${toolName}`,
  action: "tool.called",
  category: "gateway",
  actorType: "user",
  userId: null,
  ip: null,
  endpoint: "mcp",
  serverSlug: "w",
  toolName,
  arguments: { name: toolName },
  decision: "allow",
  ruleId: null,
  reason: null,
  status: "ok",
  errorCode: null,
  durationMs: 1,
  resultBytes: 1,
  truncated: false,
  upstreamVersion: "1.0.0",
  ...extra,
});
