"use client";
// The live queue: the approvals stream invalidates every approvals query on each event, so a new request shows
// up without a reload. When the stream fails the queries poll every 5 s instead, until it is back.
import { APPROVAL_EVENT, APPROVAL_RESYNC_EVENT } from "@/lib/approval-events";
import { useLiveQueryEvents } from "../use-live-query-events";
import { APPROVAL_EVENTS_URL, approvalsKey } from "./approvals-api";

export const FALLBACK_POLL_MS = 5_000;
const EVENTS = [APPROVAL_EVENT, APPROVAL_RESYNC_EVENT];

/** Subscribes while mounted; answers the refetch interval the approvals queries should use (false = live). */
export function useApprovalEvents(enabled = true): number | false {
  const live = useLiveQueryEvents(enabled ? APPROVAL_EVENTS_URL : null, EVENTS, approvalsKey);
  return live ? false : FALLBACK_POLL_MS;
}
