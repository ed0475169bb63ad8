// The access step of the request pipeline: an agent session, then a prompt on the session's tool whitelist (and
// its user's live grant), a URI inside the session's paths (and its user's). A refusal is noted for the audit
// step and answered as a JSON-RPC error with its code.
import type { PolicyCache } from "../policy/policy-cache";
import { sessionAccess } from "../policy/session-access";
import { refuseOperation, type OperationStep } from "./operation";

export function authorizeOperation(policy: PolicyCache): OperationStep {
  return (next) => async (op, ctx, notes) => {
    if (!op.grant) return refuseOperation(notes, "tool_not_allowed", "This request has no agent session; connect with an agent session token.");
    if (op.subject) {
      const access = await sessionAccess(policy, op.grant);
      if ("uri" in op.subject) {
        const refused = access.readRefusal(op.subject.uri);
        if (refused) return refuseOperation(notes, refused.code, refused.reason);
      } else if (!access.mayUse(op.subject.prompt)) {
        return refuseOperation(notes, "tool_not_allowed", `This session may not use the prompt ${op.target}: it is not on the session's whitelist.`);
      }
    }
    return next(op, ctx, notes);
  };
}
