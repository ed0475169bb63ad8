// How the console names stored enum values (a task's or an approval's status, an approver's decision, an audit
// event's status and decision): one map per enum, used by every page that shows one, so no page shows a raw
// value such as USED or SUCCEEDED.
import type { TApprovalKind, TApprovalStatus } from "./approval-schemas";
import { AUDIT_DECISIONS, AUDIT_STATUSES } from "./audit-schemas";
import type { TTask, TTaskStatus } from "./task-schemas";

export const TASK_STATUS_LABEL: Record<TTaskStatus, string> = {
  PENDING: "Pending",
  AWAITING_APPROVAL: "Awaiting approval",
  RUNNING: "Running",
  SUCCEEDED: "Succeeded",
  FAILED: "Failed",
  CANCELED: "Canceled",
  EXPIRED: "Expired",
};

export const TASK_ORIGIN_LABEL: Record<TTask["origin"], string> = {
  async: "Asynchronous tool",
  threshold: "Ran past the wait threshold",
  mcp_task: "Asked for as an MCP task",
  idempotent: "Sent with an idempotency key",
  approval: "High-risk call, held for approval",
};

/** USED is an approved call that has run: to a reader it was approved. */
export const APPROVAL_STATUS_LABEL: Record<TApprovalStatus, string> = {
  PENDING: "Pending",
  APPROVED: "Approved",
  REJECTED: "Rejected",
  EXPIRED: "Expired",
  USED: "Approved",
  CANCELED: "Withdrawn",
};

export const APPROVAL_KIND_LABEL: Record<TApprovalKind, string> = {
  CALL: "Held call",
  ADVANCE: "Asked in advance",
  STANDING: "Standing approval",
};

/** One approver's decision on an approval. */
export const APPROVER_DECISION_LABEL: Record<"approve" | "reject", string> = {
  approve: "Approved",
  reject: "Rejected",
};

export const AUDIT_STATUS_LABEL: Record<(typeof AUDIT_STATUSES)[number], string> = {
  ok: "OK",
  error: "Error",
  denied: "Denied",
  held: "Held for approval",
  started: "Running",
  interrupted: "Interrupted",
};

export const AUDIT_DECISION_LABEL: Record<(typeof AUDIT_DECISIONS)[number], string> = {
  allow: "Allowed",
  deny: "Denied by policy",
  require_approval: "Needs approval",
};

/**
 * The label of `value` in `map`; a value the map does not know (stored by a newer version, or a contract typed
 * as a plain string) reads as words, never as SHOUTING_CASE.
 */
export function labelOf(map: Readonly<Record<string, string>>, value: string): string {
  if (Object.hasOwn(map, value)) return map[value]!;
  const words = value.replace(/[_.-]+/g, " ").trim().toLowerCase();
  return words ? words[0]!.toUpperCase() + words.slice(1) : value;
}
