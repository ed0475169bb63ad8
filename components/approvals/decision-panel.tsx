"use client";
// Approve or reject one request, with a comment (required to reject: the agent is told it) and, on approve,
// optionally a standing approval of the tool for the agent's session. When the viewer may not decide, the
// panel says why. A 409 (someone was faster, it expired) or 403 is a toast, and the page refreshes.
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useId, useState } from "react";
import { notifyError, notifySuccess } from "@/components/notify";
import { buttonDangerQuiet, buttonPrimary, card, hint, label, select } from "@/components/ui";
import type { TApprovalDecisionInput, TApprovalDetail } from "@/lib/approval-schemas";
import { approvalsCount, STANDING_CHOICES } from "./approval-format";
import { approvalsKey, decideApproval } from "./approvals-api";
import { CommentField } from "./comment-field";

export function DecisionPanel({ approval: a, blocked }: { approval: TApprovalDetail; blocked: string | null }) {
  const queryClient = useQueryClient();
  const id = useId();
  const [comment, setComment] = useState("");
  const [standing, setStanding] = useState(0);
  const [missing, setMissing] = useState(false);
  const decide = useMutation({
    mutationFn: (input: TApprovalDecisionInput) => decideApproval(a.id, input),
    onSuccess: (updated, input) => {
      setComment("");
      setStanding(0);
      if (input.decision === "reject")
        notifySuccess(`Rejected ${a.tool}`, "The call will not run; the agent is told your comment.");
      else if (updated.status === "PENDING")
        notifySuccess(
          `You approved ${a.tool}`,
          `It needs ${approvalsCount(updated) ?? "another approval"}: a second approver must approve it too.`,
        );
      else notifySuccess(`Approved ${a.tool}`, "The call runs now and the agent gets the result.");
    },
    onError: (err) => notifyError(err, "Could not record the decision"),
    onSettled: () => queryClient.invalidateQueries({ queryKey: approvalsKey }),
  });

  if (blocked) {
    return (
      <section aria-label="Decision" className={`${card} p-5`}>
        <p className="text-sm text-slate-700" role="status" data-testid="decision-blocked">
          {blocked}
        </p>
      </section>
    );
  }

  function submit(decision: "approve" | "reject") {
    const text = comment.trim();
    if (decision === "reject" && !text) {
      setMissing(true);
      document.getElementById(`${id}-comment`)?.focus();
      return;
    }
    decide.mutate({
      decision,
      ...(text && { comment: text }),
      ...(decision === "approve" && standing > 0 && { standingMinutes: standing }),
    });
  }

  const busy = decide.isPending;
  return (
    <section aria-labelledby={`${id}-heading`} className={`${card} p-5`}>
      <h2 id={`${id}-heading`} className="text-base font-semibold text-slate-900">
        Your decision
      </h2>
      {a.requiredApprovals > 1 && (
        <p className="mt-1 text-sm text-amber-800" data-testid="approval-count">
          Needs {a.requiredApprovals} approvers: {approvalsCount(a)} so far.
        </p>
      )}
      <form method="post" className="mt-4 space-y-4" onSubmit={(e) => e.preventDefault()}>
        <div>
          <CommentField
            id={`${id}-comment`}
            hintId={`${id}-comment-hint`}
            title="Comment"
            value={comment}
            setValue={setComment}
            missing={missing}
            setMissing={setMissing}
            disabled={busy}
            note="Optional to approve, required to reject. The agent sees it."
            missingNote="Say why you reject it: the agent is told."
            testId="decision-comment"
          />
        </div>
        {a.agentSessionId && a.kind !== "STANDING" && (
          <div>
            <label htmlFor={`${id}-standing`} className={label}>
              Also allow this tool for this session for
            </label>
            <select
              id={`${id}-standing`}
              className={`${select} mt-1 sm:w-56`}
              value={standing}
              disabled={busy}
              onChange={(e) => setStanding(Number(e.target.value))}
              aria-describedby={`${id}-standing-hint`}
              data-testid="standing-select"
            >
              {STANDING_CHOICES.map((c) => (
                <option key={c.minutes} value={c.minutes}>
                  {c.label}
                </option>
              ))}
            </select>
            <p id={`${id}-standing-hint`} className={hint}>
              With approve: further calls of {a.tool} from the same agent session run without asking, until then. You
              can withdraw it from the History tab.
            </p>
          </div>
        )}
        <div className="flex flex-wrap gap-2">
          <button
            type="button"
            className={buttonPrimary}
            disabled={busy}
            onClick={() => submit("approve")}
            data-testid="approve-button"
          >
            {busy && decide.variables.decision === "approve" ? "Approving…" : "Approve"}
          </button>
          <button
            type="button"
            className={buttonDangerQuiet}
            disabled={busy}
            onClick={() => submit("reject")}
            data-testid="reject-button"
          >
            {busy && decide.variables.decision === "reject" ? "Rejecting…" : "Reject"}
          </button>
        </div>
      </form>
    </section>
  );
}
