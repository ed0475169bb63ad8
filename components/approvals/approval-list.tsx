"use client";
// What the Pending and History tabs share: the live list query and the requester column.
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { wideCell } from "@/components/table-cells";
import { approvalListKey, listApprovals, type ApprovalListQuery } from "./approvals-api";

/** One page of approvals, kept on screen while the next loads, refreshed every `poll` ms (or by live events). */
export function useApprovalList(q: ApprovalListQuery, poll: number | false) {
  return useQuery({
    queryKey: approvalListKey(q),
    queryFn: ({ signal }) => listApprovals(q, signal),
    placeholderData: keepPreviousData,
    refetchInterval: poll,
    refetchOnWindowFocus: true,
  });
}

/** The requester's e-mail, a column from `lg` on (folded under the tool below that). */
export function RequesterCell({ email }: { email: string }) {
  return (
    <td className={`${wideCell("lg:table-cell")} max-w-[14rem] truncate text-slate-700`} title={email}>
      {email}
    </td>
  );
}
