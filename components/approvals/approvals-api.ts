// REST calls and react-query keys for approvals. Keys nest under ["approvals"] so one invalidation (a live
// event, a decision) refreshes the queue, the history and any open detail together.
import { apiFetch } from "@/components/api-client";
import type {
  TApprovalDecisionInput,
  TApprovalDetail,
  TApprovalPage,
  TApprovalReveal,
  TApprovalStatus,
} from "@/lib/approval-schemas";

export type ApprovalListQuery = {
  statuses: readonly TApprovalStatus[];
  tool?: string | undefined;
  requester?: string | undefined;
  /** ISO 8601 with offset. */
  from?: string | undefined;
  to?: string | undefined;
  cursor?: string | undefined;
  limit?: number | undefined;
};

export const approvalsKey = ["approvals"] as const;
export const approvalListKey = (q: ApprovalListQuery) =>
  ["approvals", "list", { ...q, cursor: q.cursor ?? null }] as const;
export const approvalKey = (id: string) => ["approvals", "detail", id] as const;

const approvalPath = (id: string) => `/api/v1/approvals/${encodeURIComponent(id)}`;
export const approvalHref = (id: string) => `/approvals/${encodeURIComponent(id)}`;
export const APPROVAL_EVENTS_URL = "/api/v1/approvals/events";

export function approvalListParams(q: ApprovalListQuery): URLSearchParams {
  const params = new URLSearchParams();
  if (q.statuses.length) params.set("status", q.statuses.join(","));
  for (const key of ["tool", "requester", "from", "to", "cursor"] as const) {
    const v = q[key]?.trim();
    if (v) params.set(key, v);
  }
  if (q.limit) params.set("limit", String(q.limit));
  return params;
}

export function listApprovals(q: ApprovalListQuery, signal?: AbortSignal) {
  const qs = approvalListParams(q).toString();
  return apiFetch<TApprovalPage>(`/api/v1/approvals${qs ? `?${qs}` : ""}`, { signal });
}

export const getApproval = (id: string, signal?: AbortSignal) =>
  apiFetch<TApprovalDetail>(approvalPath(id), { signal });
export const decideApproval = (id: string, input: TApprovalDecisionInput) =>
  apiFetch<TApprovalDetail>(`${approvalPath(id)}/decision`, { method: "POST", body: input });
export const revealApproval = (id: string) =>
  apiFetch<TApprovalReveal>(`${approvalPath(id)}/reveal`, { method: "POST" });
export const revokeApproval = (id: string) =>
  apiFetch<TApprovalDetail>(`${approvalPath(id)}/revoke`, { method: "POST" });
