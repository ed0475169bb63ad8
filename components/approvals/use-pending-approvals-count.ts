"use client";
// The nav badge's number: pending approval requests, kept live by the approvals stream (each event
// invalidates every ["approvals"] query, this one included), polling only while the stream is down.
import { useQuery } from "@tanstack/react-query";
import { approvalsKey, listApprovals } from "./approvals-api";
import { useApprovalEvents } from "./use-approval-events";

/** One page is enough to count: past it the badge reads "99+". */
export const PENDING_BADGE_LIMIT = 99;

export function usePendingApprovalsCount(enabled: boolean): { count: number; more: boolean } | null {
  const poll = useApprovalEvents(enabled);
  const query = useQuery({
    queryKey: [...approvalsKey, "pending-count"],
    queryFn: ({ signal }) => listApprovals({ statuses: ["PENDING"], limit: PENDING_BADGE_LIMIT }, signal),
    enabled,
    refetchInterval: poll,
  });
  if (!enabled || !query.data) return null;
  return { count: query.data.items.length, more: query.data.nextCursor !== null };
}
