"use client";
// Withdraw an approval with a confirmation: a standing approval or an unused advance grant (approvers), or
// the requester's own pending request. 409 when it ended meanwhile: a toast, and the page refreshes.
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { Dialog } from "@/components/dialog";
import { notifyError, notifySuccess } from "@/components/notify";
import { buttonDanger, buttonDangerQuiet, buttonSecondary } from "@/components/ui";
import type { TApproval } from "@/lib/approval-schemas";
import { approvalsKey, revokeApproval } from "./approvals-api";

export function RevokeButton({ approval: a }: { approval: Pick<TApproval, "id" | "tool" | "kind" | "status"> }) {
  const queryClient = useQueryClient();
  const [confirming, setConfirming] = useState(false);
  const pending = a.status === "PENDING";
  const revoke = useMutation({
    mutationFn: () => revokeApproval(a.id),
    onSuccess: () => {
      setConfirming(false);
      notifySuccess(
        pending ? `Request for ${a.tool} withdrawn` : `Approval of ${a.tool} withdrawn`,
        pending ? "The call will not run." : "Further calls wait for a person again.",
      );
    },
    onError: (err) => {
      setConfirming(false);
      notifyError(err, "Could not withdraw it");
    },
    onSettled: () => queryClient.invalidateQueries({ queryKey: approvalsKey }),
  });
  const what = pending ? "request" : a.kind === "STANDING" ? "standing approval" : "approval";

  return (
    <>
      <button
        type="button"
        className={buttonDangerQuiet}
        onClick={() => setConfirming(true)}
        disabled={revoke.isPending}
        data-testid="revoke-button"
      >
        {pending ? "Withdraw request" : "Revoke"}
      </button>
      <Dialog
        open={confirming}
        onClose={() => setConfirming(false)}
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
        footer={
          <>
            <button
              type="button"
              className={buttonSecondary}
              onClick={() => setConfirming(false)}
              disabled={revoke.isPending}
            >
              Keep it
            </button>
            <button type="button" className={buttonDanger} onClick={() => revoke.mutate()} disabled={revoke.isPending}>
              {revoke.isPending ? "Withdrawing…" : "Withdraw"}
            </button>
          </>
        }
      />
    </>
  );
}
