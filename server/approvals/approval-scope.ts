// The approvals subsystem's shared vocabulary: its options, who looks, why a call is held, and the dependencies
// every approval operation is handed (the factory in approvals.ts builds them once).
import type { AuditWriter } from "../audit/audit-writer";
import type { Db, Role } from "../db/client";
import type { Logger } from "../logger";
import type { TaskEngine } from "../tasks/task-engine";

export type ApprovalOptions = {
  /** An unanswered request expires after this long. */
  ttlMs: number;
  /** An approved request_approval grant must be used within this long. */
  useWindowMs: number;
  /** New requests are POSTed here (HMAC-signed with webhookSecret), for chat notifications. */
  webhookUrl: string | null;
  webhookSecret: string | null;
  /** How often each process expires overdue requests. */
  sweepIntervalMs: number;
};

export const DEFAULT_APPROVAL_OPTIONS: ApprovalOptions = {
  ttlMs: 24 * 3600_000,
  useWindowMs: 3600_000,
  webhookUrl: null,
  webhookSecret: null,
  sweepIntervalMs: 5000,
};

/** Who looks: approvers and admins see every request, users only their own. */
export type ApprovalViewer = { userId: string; role: Role };

export const APPROVAL_META = "portcullis/approval";
export const APPROVAL_REQUESTED_EVENT = "approval.requested";

export const isApprover = (role: Role) => role === "APPROVER" || role === "ADMIN";

/** Why a person must decide (from the tier step or a rule). */
export type HoldReason = { reason: string; ruleId?: string | null | undefined };


/** What every approval operation is handed: the database, the task engine that runs held calls, options, a log. */
export type ApprovalScope = { db: Db; audit: AuditWriter; engine: TaskEngine; opts: ApprovalOptions; log: Logger };
