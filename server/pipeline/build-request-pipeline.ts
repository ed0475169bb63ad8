// The order of every agent operation that is not a tool call (prompts/get, resources/read, resources/subscribe
// and unsubscribe, completion/complete), in one place, from the same kind of steps as tool calls
// (build-pipeline.ts): audit (outermost, sees every outcome) → authorize (agent session; prompt on the tool
// whitelist ∩ live grant; URI in the session's paths) → rate limit (session, target) → output bound → execute.
// Prompts and resources have no parameter rules of their own: the rule model holds rules per tool.
import type { AuditWriter } from "../audit/audit-writer";
import type { Logger } from "../logger";
import type { PolicyCache } from "../policy/policy-cache";
import { auditOperation } from "./audit-operation";
import { authorizeOperation } from "./authorize-operation";
import { boundOperation } from "./bound-operation";
import { limitOperation } from "./limit-operation";
import type { OperationHandler } from "./operation";
import { executeOperation } from "./operation-kinds";
import type { CallLimiter } from "./rate-limit";
import { compose } from "./types";

export function buildRequestPipeline(
  deps: { audit: AuditWriter; logger: Logger; policy: PolicyCache; limiter: Pick<CallLimiter, "admit"> },
  opts: { maxOutputBytes: number },
): OperationHandler {
  return compose<OperationHandler>(auditOperation(deps.audit, deps.logger), authorizeOperation(deps.policy), limitOperation(deps.limiter), boundOperation(opts.maxOutputBytes))(executeOperation);
}
