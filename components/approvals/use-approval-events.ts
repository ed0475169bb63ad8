"use client";
// The live queue: an EventSource on the approvals stream invalidates every approvals query on each event, so
// a new request shows up without a reload. When the stream fails the queries poll every 5 s instead, until
// it is back (and a reconnect refetches, in case something happened meanwhile).
import { useQueryClient } from "@tanstack/react-query";
import { useEffect, useState } from "react";
import { APPROVAL_EVENT, APPROVAL_RESYNC_EVENT } from "@/lib/approval-events";
import { APPROVAL_EVENTS_URL, approvalsKey } from "./approvals-api";

export const FALLBACK_POLL_MS = 5_000;

/** Subscribes while mounted; answers the refetch interval the approvals queries should use (false = live). */
export function useApprovalEvents(enabled = true): number | false {
  const queryClient = useQueryClient();
  const [live, setLive] = useState(true);
  useEffect(() => {
    if (!enabled || typeof EventSource === "undefined") {
      setLive(false);
      return;
    }
    let wasDown = false;
    const source = new EventSource(APPROVAL_EVENTS_URL);
    const refresh = () => void queryClient.invalidateQueries({ queryKey: approvalsKey });
    source.addEventListener(APPROVAL_EVENT, refresh);
    source.addEventListener(APPROVAL_RESYNC_EVENT, refresh);
    source.onopen = () => {
      setLive(true);
      if (wasDown) refresh();
      wasDown = false;
    };
    source.onerror = () => {
      wasDown = true;
      setLive(false);
    };
    return () => {
      source.removeEventListener(APPROVAL_EVENT, refresh);
      source.close();
    };
  }, [enabled, queryClient]);
  return live ? false : FALLBACK_POLL_MS;
}
