"use client";
// Withdraw an approval with a confirmation: a standing approval or an unused advance grant (approvers), or
// the requester's own pending request. 409 when it ended meanwhile: a toast, and the page refreshes.
import { ConfirmButton } from "@/components/confirm-button";
import { notifySuccess } from "@/components/notify";
import type { TApproval } from "@/lib/approval-schemas";
import { approvalsKey, revokeApproval } from "./approvals-api";

export function RevokeButton({ approval: a }: { approval: Pick<TApproval, "id" | "tool" | "kind" | "status"> }) {
  const pending = a.status === "PENDING";
  const what = pending ? "request" : a.kind === "STANDING" ? "standing approval" : "approval";

  return (
    <ConfirmButton
      label={pending ? "Withdraw request" : "Revoke"}
      testId="revoke-button"
      title={`Withdraw this ${what}?`}
      description={
        pending ? (
          <>
            The held call of <span className="font-mono font-medium break-all text-slate-900">{a.tool}</span> will not
            run; its task is canceled.
          </>
        ) : (
          <>
            Calls of <span className="font-mono font-medium break-all text-slate-900">{a.tool}</span> it allowed will
            wait for an approver again.
          </>
        )
      }
      confirmLabel="Withdraw"
      confirmBusyLabel="Withdrawing…"
      mutationFn={() => revokeApproval(a.id)}
      onSuccess={() =>
        notifySuccess(
          pending ? `Request for ${a.tool} withdrawn` : `Approval of ${a.tool} withdrawn`,
          pending ? "The call will not run." : "Further calls wait for a person again.",
        )
      }
      errorContext="Could not withdraw it"
      invalidate={approvalsKey}
    />
  );
}
