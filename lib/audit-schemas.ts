// Contracts of the audit search: the REST API (`GET /api/v1/audit`, `/audit/{id}`, `/audit/export`), the
// console's audit pages and server/audit/audit-search.ts share them.
import { z } from "zod";
import { ZPageQuery } from "./schemas";

// started: a call's request record whose outcome is not written yet (it is written just after the answer);
// interrupted: the gateway process stopped before writing it (the sweep marks such records).
export const AUDIT_STATUSES = ["ok", "error", "denied", "held", "started", "interrupted"] as const;
export const AUDIT_DECISIONS = ["allow", "deny", "require_approval"] as const;
export const AUDIT_CATEGORIES = ["gateway", "security", "admin", "system"] as const;
/** `-occurredAt` newest first (default), `occurredAt` oldest first, `-durationMs` slowest first. */
export const AUDIT_SORTS = ["-occurredAt", "occurredAt", "-durationMs"] as const;
export type TAuditSort = (typeof AUDIT_SORTS)[number];
export const AUDIT_EXPORT_FORMATS = ["csv", "jsonl"] as const;

/** A comma-separated list of allowed values (`status=denied,error`), lower-cased. */
const list = <T extends string>(allowed: readonly T[], what: string) =>
  z
    .string()
    .optional()
    .transform((v, c) => {
      if (!v) return undefined;
      const parts = [...new Set(v.split(",").map((s) => s.trim().toLowerCase()).filter(Boolean))];
      const bad = parts.filter((p) => !(allowed as readonly string[]).includes(p));
      if (bad.length) {
        c.addIssue({ code: "custom", message: `unknown ${what} ${bad.join(", ")}; use ${allowed.join(", ")}` });
        return z.NEVER;
      }
      return parts.length ? (parts as T[]) : undefined;
    });

const text = (max: number) =>
  z
    .string()
    .trim()
    .max(max)
    .optional()
    .transform((v) => v || undefined);

/** The filters of a search and of an export (everything but paging). */
export const ZAuditFilter = z.object({
  /** E-mail (exact, any case) or user id. */
  user: text(320),
  /** The agent's id (exact). */
  agent: text(200),
  /** The agent session id (exact). */
  session: text(200),
  /** Gateway tool name `<server>__<tool>`, exact, or a prefix ending in `*` (`orders__*`). */
  tool: text(300),
  /** Upstream server slug (exact). */
  server: text(100),
  status: list(AUDIT_STATUSES, "status"),
  decision: list(AUDIT_DECISIONS, "decision"),
  category: list(AUDIT_CATEGORIES, "category"),
  /** Event action, exact (`tool.called`) or a prefix ending in `*` (`approval.*`). */
  action: text(200),
  /** At or after (ISO 8601 with offset). */
  from: z.iso.datetime({ offset: true }).optional(),
  /** Before (ISO 8601 with offset). */
  to: z.iso.datetime({ offset: true }).optional(),
  /** Case-insensitive substring of the tool name, the (redacted) arguments as JSON text, or the reason. */
  q: text(200),
  sort: z.enum(AUDIT_SORTS).default("-occurredAt"),
});

const checkRange = <T extends { from?: string | undefined; to?: string | undefined }>(v: T, c: z.RefinementCtx) => {
  if (v.from && v.to && Date.parse(v.from) >= Date.parse(v.to)) c.addIssue({ code: "custom", path: ["to"], message: "must be after from" });
};

export const ZAuditQuery = ZAuditFilter.extend(ZPageQuery.shape).superRefine(checkRange);
export type TAuditQuery = z.output<typeof ZAuditQuery>;
export type TAuditFilter = z.output<typeof ZAuditFilter>;

export const ZAuditExportQuery = ZAuditFilter.extend({ format: z.enum(AUDIT_EXPORT_FORMATS).default("csv") }).superRefine(checkRange);
export type TAuditExportQuery = z.output<typeof ZAuditExportQuery>;

export const ZAuditEvent = z
  .object({
    id: z.string().meta({ description: "64-bit id as a string" }),
    occurredAt: z.string(),
    requestId: z.string().nullable(),
    action: z.string().meta({ description: "e.g. tool.called, approval.requested, user.created" }),
    category: z.string(),
    actorType: z.string(),
    userId: z.string().nullable(),
    userEmail: z.string().nullable(),
    agentId: z.string().nullable(),
    sessionId: z.string().nullable().meta({ description: "Agent session id" }),
    mcpSessionId: z.string().nullable(),
    endpoint: z.string().nullable(),
    serverSlug: z.string().nullable(),
    toolName: z.string().nullable(),
    targetType: z.string().nullable(),
    targetId: z.string().nullable(),
    arguments: z.unknown().nullable().meta({ description: "The call's arguments as stored (redacted)" }),
    intent: z.string().nullable(),
    decision: z.string().nullable(),
    ruleId: z.string().nullable(),
    reason: z.string().nullable(),
    status: z.string().meta({ description: "ok, error, denied, held, started (outcome not yet written) or interrupted (the process stopped first)" }),
    errorCode: z.string().nullable(),
    durationMs: z.number().int().nullable(),
    resultBytes: z.number().int().nullable(),
    truncated: z.boolean(),
    upstreamVersion: z.string().nullable(),
    approvalId: z.string().nullable(),
    taskId: z.string().nullable(),
    parentId: z.string().nullable(),
    ip: z.string().nullable(),
    details: z.unknown().nullable(),
  })
  .meta({ id: "AuditEvent" });
export type TAuditEvent = z.infer<typeof ZAuditEvent>;

export const ZAuditPage = z
  .object({
    items: z.array(ZAuditEvent),
    /** Matching events: counted exactly up to AUDIT_EXACT_COUNT_LIMIT within AUDIT_COUNT_TIMEOUT_MS, else the planner's estimate. */
    total: z.number().int(),
    totalIsEstimate: z.boolean(),
    nextCursor: z.string().nullable(),
  })
  .meta({ id: "AuditPage" });
export type TAuditPage = z.infer<typeof ZAuditPage>;

/** Matches above this many are not counted row by row: `total` is then PostgreSQL's estimate. */
export const AUDIT_EXACT_COUNT_LIMIT = 10_000;
/** A count that takes longer than this is abandoned for PostgreSQL's estimate, so a search stays fast. */
export const AUDIT_COUNT_TIMEOUT_MS = 150;

export const ZAuditApprovalSummary = z
  .object({
    id: z.string(),
    kind: z.string(),
    status: z.string(),
    toolName: z.string(),
    requesterEmail: z.string(),
    requiredApprovals: z.number().int(),
    justification: z.string().nullable(),
    createdAt: z.string(),
    decidedAt: z.string().nullable(),
    decisionComment: z.string().nullable(),
    decisions: z.array(z.object({ approverEmail: z.string(), decision: z.string(), comment: z.string().nullable(), at: z.string() })),
  })
  .meta({ id: "AuditApprovalSummary" });

export const ZAuditTaskSummary = z
  .object({
    id: z.string(),
    status: z.string(),
    toolName: z.string(),
    origin: z.string(),
    createdAt: z.string(),
    startedAt: z.string().nullable(),
    finishedAt: z.string().nullable(),
    errorCode: z.string().nullable(),
  })
  .meta({ id: "AuditTaskSummary" });

export const ZAuditEventDetail = z
  .object({
    event: ZAuditEvent,
    /** Every event of the request (same request id) and of its approval and task, oldest first (at most 500). */
    story: z.array(ZAuditEvent),
    approval: ZAuditApprovalSummary.nullable(),
    task: ZAuditTaskSummary.nullable(),
  })
  .meta({ id: "AuditEventDetail" });
export type TAuditEventDetail = z.infer<typeof ZAuditEventDetail>;

/** The filter keys the console keeps in its URL (and sends to the API and the export as they are). */
export const AUDIT_FILTER_KEYS = ["user", "agent", "session", "tool", "server", "status", "decision", "category", "action", "from", "to", "q", "sort"] as const;
