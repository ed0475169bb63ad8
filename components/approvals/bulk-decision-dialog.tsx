"use client";
// One comment for several requests: approve or reject every selected one in turn. A rejection needs a
// comment (the agents are told it); the outcome, failures included, goes back to the queue.
import { useId, useState } from "react";
import { Dialog } from "@/components/dialog";
import { buttonDanger, buttonPrimary, buttonSecondary } from "@/components/ui";
import type { TApproval } from "@/lib/approval-schemas";
import { CommentField } from "./comment-field";
import { decideMany, type BulkOutcome } from "./decide-many";

export function BulkDecisionDialog({
  decision,
  approvals,
  onClose,
  onDone,
}: {
  decision: "approve" | "reject" | null;
  approvals: readonly Pick<TApproval, "id" | "tool">[];
  onClose: () => void;
  onDone: (decision: "approve" | "reject", outcome: BulkOutcome) => void;
}) {
  const [comment, setComment] = useState("");
  const [busy, setBusy] = useState(false);
  const [missing, setMissing] = useState(false);
  const id = useId();
  const n = approvals.length;
  const what = `${n} request${n === 1 ? "" : "s"}`;
  const reject = decision === "reject";

  function close() {
    if (busy) return;
    setComment("");
    setMissing(false);
    onClose();
  }

  async function submit(e: React.FormEvent) {
    e.preventDefault();
    if (!decision || busy) return;
    const text = comment.trim();
    if (reject && !text) {
      setMissing(true);
      return;
    }
    setBusy(true);
    try {
      const outcome = await decideMany(approvals, { decision, ...(text && { comment: text }) });
      setComment("");
      setMissing(false);
      onDone(decision, outcome);
    } finally {
      setBusy(false);
    }
  }

  return (
    <Dialog
      open={decision !== null}
      onClose={close}
      title={reject ? `Reject ${what}?` : `Approve ${what}?`}
      description={
        reject
          ? "None of these calls will run; each agent is told your comment."
          : "Each call runs now with exactly the arguments shown, and its agent gets the result."
      }
    >
      <form method="post" onSubmit={(e) => void submit(e)}>
        <ul className="mb-4 max-h-40 space-y-1 overflow-y-auto text-sm text-slate-700">
          {approvals.map((a) => (
            <li key={a.id} className="font-mono break-all">
              {a.tool}
            </li>
          ))}
        </ul>
        <CommentField
          id={`${id}-comment`}
          hintId={`${id}-hint`}
          title={`Comment${reject ? "" : " (optional)"}`}
          value={comment}
          setValue={setComment}
          missing={missing}
          setMissing={setMissing}
          disabled={busy}
          note="Recorded with each decision and shown to the agents."
          missingNote="Say why you reject them: the agents are told."
        />
        <div className="mt-6 flex flex-wrap justify-end gap-2">
          <button type="button" className={buttonSecondary} onClick={close} disabled={busy}>
            Cancel
          </button>
          <button
            type="submit"
            className={reject ? buttonDanger : buttonPrimary}
            disabled={busy || n === 0}
            data-testid="bulk-confirm"
          >
            {busy ? (reject ? "Rejecting…" : "Approving…") : reject ? `Reject ${what}` : `Approve ${what}`}
          </button>
        </div>
      </form>
    </Dialog>
  );
}
