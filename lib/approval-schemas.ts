// Contracts of human approval: the REST API, the console's Approvals page and the MCP approval tools share them.
import { z } from "zod";
import { ZTaskStatus } from "./task-schemas";
import { ZPageQuery } from "./schemas";

export const APPROVAL_STATUSES = ["PENDING", "APPROVED", "REJECTED", "EXPIRED", "USED", "CANCELED"] as const;
export const ZApprovalStatus = z.enum(APPROVAL_STATUSES).meta({ id: "ApprovalStatus" });
export type TApprovalStatus = z.infer<typeof ZApprovalStatus>;

/**
 * CALL: a HIGH-tier call held until a decision; approved, it runs as its task.
 * ADVANCE: asked ahead with `request_approval`; approved, one call with exactly these arguments may run.
 * STANDING: an approver allowed a tool for one agent session until `standingUntil`.
 */
export const APPROVAL_KINDS = ["CALL", "ADVANCE", "STANDING"] as const;
export const ZApprovalKind = z.enum(APPROVAL_KINDS).meta({ id: "ApprovalKind" });
export type TApprovalKind = z.infer<typeof ZApprovalKind>;

export const ZApprovalDecisionRecord = z.object({
  approverId: z.string(),
  approverEmail: z.string(),
  decision: z.enum(["approve", "reject"]),
  comment: z.string().nullable(),
  at: z.string(),
});
export type TApprovalDecisionRecord = z.infer<typeof ZApprovalDecisionRecord>;

export const ZApproval = z
  .object({
    id: z.string(),
    kind: ZApprovalKind,
    status: ZApprovalStatus,
    tool: z.string().meta({ description: "Gateway tool name <server>__<tool>" }),
    riskTier: z.enum(["LOW", "MEDIUM", "HIGH"]).nullable(),
    /** Why a person must decide: the tier or rule that required it. */
    reason: z.string().nullable(),
    ruleId: z.string().nullable(),
    requesterId: z.string(),
    requesterEmail: z.string(),
    agentId: z.string().nullable(),
    agentSessionId: z.string().nullable(),
    /** The agent session token's visible prefix (pcs_…), as the Agents page shows it. */
    agentSessionPrefix: z.string().nullable(),
    /** The agent's stated intent (request_approval's justification, or the call's `_meta.intent`). */
    justification: z.string().nullable(),
    /** The arguments with personal data and secrets masked; approvers may reveal the full ones (audited). */
    arguments: z.record(z.string(), z.unknown()),
    argumentsHash: z.string(),
    requiredApprovals: z.number().int(),
    decisions: z.array(ZApprovalDecisionRecord),
    taskId: z.string().nullable(),
    taskStatus: ZTaskStatus.nullable(),
    createdAt: z.string(),
    expiresAt: z.string(),
    decidedAt: z.string().nullable(),
    decisionComment: z.string().nullable(),
    standingUntil: z.string().nullable(),
    usedAt: z.string().nullable(),
    /** Whether the viewer may decide it now (pending, an approver, not their own request, not yet decided by them). */
    canDecide: z.boolean(),
  })
  .meta({ id: "Approval" });
export type TApproval = z.infer<typeof ZApproval>;

export const ZApprovalDetail = ZApproval.extend({
  /** The tool's input schema now, for the arguments-against-schema view (null when the tool is gone). */
  inputSchema: z.record(z.string(), z.unknown()).nullable(),
}).meta({ id: "ApprovalDetail" });
export type TApprovalDetail = z.infer<typeof ZApprovalDetail>;

export const ZApprovalPage = z.object({ items: z.array(ZApproval), nextCursor: z.string().nullable() }).meta({ id: "ApprovalPage" });
export type TApprovalPage = z.infer<typeof ZApprovalPage>;

const flag = z.enum(["1", "0", "true", "false"]).transform((v) => v === "1" || v === "true");

export const ZApprovalQuery = ZPageQuery.extend({
  /** One status or several, comma-separated: status=APPROVED,REJECTED */
  status: z
    .string()
    .optional()
    .transform((v, c) => {
      if (!v) return undefined;
      const parts = v
        .split(",")
        .map((s) => s.trim().toUpperCase())
        .filter(Boolean);
      const bad = parts.filter((p) => !(APPROVAL_STATUSES as readonly string[]).includes(p));
      if (bad.length) {
        c.addIssue({ code: "custom", message: `unknown status ${bad.join(", ")}; use ${APPROVAL_STATUSES.join(", ")}` });
        return z.NEVER;
      }
      return parts as TApprovalStatus[];
    }),
  kind: ZApprovalKind.optional(),
  /** Gateway tool name, exact. */
  tool: z.string().min(1).max(300).optional(),
  /** Requester e-mail, exact. */
  requester: z.string().min(1).max(320).optional(),
  /** Created at or after / before (ISO 8601). */
  from: z.iso.datetime({ offset: true }).optional(),
  to: z.iso.datetime({ offset: true }).optional(),
  /** 1 = only requests the caller made (approvers see everyone's otherwise, users always only their own). */
  mine: flag.optional(),
});
export type TApprovalQuery = z.output<typeof ZApprovalQuery>;

export const ZApprovalDecisionInput = z
  .object({
    decision: z.enum(["approve", "reject"]),
    comment: z.string().trim().max(2000).optional(),
    /** With approve: also allow this tool for the same agent session for this many minutes (a standing approval). */
    standingMinutes: z.number().int().min(1).max(24 * 60).optional(),
  })
  .refine((v) => v.decision === "approve" || v.standingMinutes === undefined, { message: "standingMinutes goes only with approve", path: ["standingMinutes"] })
  .meta({ id: "ApprovalDecisionInput" });
export type TApprovalDecisionInput = z.infer<typeof ZApprovalDecisionInput>;

export const ZApprovalReveal = z.object({ arguments: z.record(z.string(), z.unknown()) }).meta({ id: "ApprovalReveal" });
export type TApprovalReveal = z.infer<typeof ZApprovalReveal>;

/** What a held call (or request_approval) answers in `structuredContent`. */
export const ZApprovalAccepted = z.object({
  approval_id: z.string(),
  status: ZApprovalStatus,
  task_id: z.string().nullable(),
  expires_at: z.string(),
});

export const isTerminalApprovalStatus = (s: TApprovalStatus): boolean => s !== "PENDING" && s !== "APPROVED";
