// Bulk decisions: the client decides each selected request in turn and reports which ones failed (another
// approver was faster, the request expired, it is one's own…), so one failure never hides the others.
import type { TApproval, TApprovalDecisionInput } from "@/lib/approval-schemas";
import { decideApproval } from "./approvals-api";

export type BulkFailure = { approval: Pick<TApproval, "id" | "tool">; message: string };
export type BulkOutcome = { done: number; failed: BulkFailure[] };

export async function decideMany(
  approvals: readonly Pick<TApproval, "id" | "tool">[],
  input: TApprovalDecisionInput,
  decide: (id: string, input: TApprovalDecisionInput) => Promise<unknown> = decideApproval,
): Promise<BulkOutcome> {
  const outcome: BulkOutcome = { done: 0, failed: [] };
  for (const approval of approvals) {
    try {
      await decide(approval.id, input);
      outcome.done++;
    } catch (err) {
      const message = err instanceof Error ? err.message : String(err);
      outcome.failed.push({ approval, message });
    }
  }
  return outcome;
}
