// The pipeline step for HIGH-tier calls (marked `call.approval` by authorize), after the schema and rate-limit
// steps and before the task switch: a standing approval or an approved request_approval grant for exactly
// these arguments lets the call run (the grant is used up); otherwise an agent session's call is held for a
// person and answered at once with the approval and task ids. Outside agent sessions it is refused. A retry
// with an idempotency key whose call already ran (or runs) passes on to the task switch, which answers it with
// that task: it runs nothing, so it needs no second approval.
import type { Middleware } from "../pipeline/types";
import { approvalUnavailable, type Approvals } from "./approvals";

export function approvalGate(approvals: Approvals): Middleware {
  return (next) => async (call, ctx, notes) => {
    const why = call.approval;
    if (!why) return next(call, ctx, notes);
    const tc = call.task;
    if (tc && (await approvals.isKeyedReplay(tc))) return next(call, ctx, notes);
    const grant = tc ? await approvals.grantFor(call, tc) : null;
    if (grant) {
      notes.approvalId = grant.id;
      notes.decision = "allow";
      notes.reason = grant.kind === "STANDING" ? `standing approval ${grant.id} until ${grant.standingUntil?.toISOString() ?? "?"}` : `approved in advance (${grant.id}), used now`;
      return next(call, ctx, notes);
    }
    notes.decision = "require_approval";
    notes.reason = why.reason;
    if (why.ruleId) notes.ruleId = why.ruleId;
    // Nobody could follow a held call outside an agent session, or for a client that cannot take a task (its
    // approved-ahead or standing grant above still lets the call run).
    if (!tc || call.noTasks) {
      notes.errorCode = "approval_required";
      return approvalUnavailable(call.tool.gatewayName);
    }
    return approvals.hold(call, tc, ctx, notes, why);
  };
}
