// The order of the gateway path, in one place: audit (outermost, sees every outcome) → refuse (disabled
// tool) → whitelist → risk tier → parameter rules → schema → rate limit → approval gate → task switch (or
// output bound) → execute (at the upstream, or in process for the gateway's own tools).
import type { AuditWriter } from "../audit/audit-writer";
import type { Logger } from "../logger";
import type { UpstreamPool } from "../upstream/upstream-pool";
import type { PolicyCache } from "../policy/policy-cache";
import { auditCall } from "./audit-call";
import { authorize } from "./authorize";
import { boundOutput } from "./bound-output";
import { listEarly, type OnDefinitionDrift } from "./check-pinned-definition";
import { createSharedToolListing } from "./shared-tool-listing";
import { executeUpstream } from "./execute-upstream";
import { isBuiltinTool } from "../builtin/builtin-server";
import { approvalGate } from "../approvals/approval-gate";
import type { Approvals } from "../approvals/approvals";
import type { TaskEngine } from "../tasks/task-engine";
import { taskSwitch } from "../tasks/task-switch";
import { toolError } from "./tool-error";
import { compose, type CallToolHandler, type Middleware } from "./types";
import { validateArguments } from "./validate-arguments";

export type PipelineOptions = { maxOutputBytes: number };

/**
 * audit → refuse → authorize (whitelist, tier, rules) → validate → rate limit → approval gate → task switch
 * (or, without a task engine, output bound) → execute. The task switch bounds what it answers itself. Without
 * approvals a HIGH-tier call is refused `approval_required`.
 */
export function buildToolPipeline(
  deps: { audit: AuditWriter; logger: Logger; pool: UpstreamPool; rateLimit: Middleware; policy: PolicyCache; tasks?: TaskEngine | undefined; approvals?: Approvals | undefined; builtin?: CallToolHandler | undefined; onDefinitionDrift?: OnDefinitionDrift | undefined },
  opts: PipelineOptions,
): CallToolHandler {
  const last = deps.tasks ? taskSwitch(deps.tasks, opts.maxOutputBytes) : boundOutput(opts.maxOutputBytes);
  const listings = createSharedToolListing();
  const steps: Middleware[] = [listEarly(deps.pool, listings), auditCall(deps.audit, deps.logger), refuse, authorize(deps.policy, !!deps.approvals), validateArguments(), deps.rateLimit];
  if (deps.approvals) steps.push(approvalGate(deps.approvals));
  return compose(...steps, last)(executeByServer(executeUpstream(deps.pool, deps.onDefinitionDrift, listings), deps.builtin));
}

/**
 * The execute step: a built-in tool (server `portcullis`) runs in process, everything else at its upstream.
 * Built-in calls carry no task context, so a HIGH-tier one is refused `approval_required` (nothing can run it
 * later) and their answer is bounded like any call's.
 */
function executeByServer(upstream: CallToolHandler, builtin: CallToolHandler | undefined): CallToolHandler {
  if (!builtin) return upstream;
  return (call, ctx, notes) => (isBuiltinTool(call.tool) ? builtin(call, ctx, notes) : upstream(call, ctx, notes));
}

/** A call the registry already refused (disabled tool) ends here, after the audit step has seen it. */
const refuse: Middleware = (next) => async (call, ctx, notes) => {
  if (!call.refusal) return next(call, ctx, notes);
  notes.decision = "deny";
  notes.errorCode = call.refusal.code;
  notes.reason = call.refusal.message;
  return toolError(call.refusal.code, call.refusal.message);
}
