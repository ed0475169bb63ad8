// The access steps of the gateway path, in order: tool on the session's whitelist → risk tier → parameter
// rules (evaluatePolicy). A denied call ends here with a tool error the model can act on; row caps rewrite
// the arguments the later steps (schema, execute) see. A call without a session grant is refused.
import { evaluatePolicy } from "../policy/evaluate";
import type { PolicyCache } from "../policy/policy-cache";
import { toolError, type ToolErrorCode } from "./tool-error";
import type { Middleware } from "./types";

/**
 * With `holdHighRisk`, a HIGH-tier call that passed the rules goes on marked `call.approval` (the approval gate
 * holds it after the schema and rate-limit steps); without, it is refused `approval_required`.
 */
export function authorize(policy: PolicyCache, holdHighRisk = false): Middleware {
  return (next) => async (call, ctx, notes) => {
    const grant = call.grant;
    if (!grant) {
      notes.decision = "deny";
      notes.errorCode = "tool_not_allowed";
      notes.reason = "the call carries no session grant";
      return toolError("tool_not_allowed", "This call has no agent session; connect with an agent session token.");
    }
    const [held, rules] = await Promise.all([policy.held({ id: grant.userId, role: grant.role }), policy.rulesFor(call.tool.id)]);
    const verdict = await evaluatePolicy({ tool: call.tool, arguments: call.arguments, session: grant, held, rules });
    if (verdict.decision === "require_approval" && holdHighRisk) {
      if (verdict.capped) notes.capped = verdict.capped;
      return next({ ...call, arguments: verdict.arguments, approval: { reason: verdict.reason, ruleId: verdict.ruleId } }, ctx, notes);
    }
    if (verdict.decision !== "allow") {
      notes.decision = verdict.decision;
      notes.errorCode = verdict.code ?? "policy_denied";
      notes.reason = verdict.reason;
      if (verdict.ruleId) notes.ruleId = verdict.ruleId;
      return toolError(verdict.code as ToolErrorCode, verdict.reason, { step: verdict.step, ...(verdict.ruleId && { ruleId: verdict.ruleId }) });
    }
    if (verdict.capped) notes.capped = verdict.capped;
    return next(verdict.arguments === call.arguments ? call : { ...call, arguments: verdict.arguments }, ctx, notes);
  };
}
