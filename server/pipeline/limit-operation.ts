// The rate-limit step of the request pipeline: the same budgets as tool calls (rate-limit.ts), per session and
// per target (a prompt, a server's resources or completions, at the server's limit or the gateway default).
// Over the limit, a JSON-RPC error `[rate_limited] … Try again in N s.` with retryAfterSeconds in its data.
import { refuseOperation, type OperationStep } from "./operation";
import { OPERATION_KINDS } from "./operation-kinds";
import type { CallLimiter } from "./rate-limit";

export function limitOperation(limiter: Pick<CallLimiter, "admit">): OperationStep {
  return (next) => async (op, ctx, notes) => {
    const target = OPERATION_KINDS[op.kind].rate?.(op);
    const refused = target && (await limiter.admit(target, op.sessionKey, notes));
    if (refused) return refuseOperation(notes, "rate_limited", refused.message, { retryAfterSeconds: refused.retryAfterSeconds });
    return next(op, ctx, notes);
  };
}
