// Human approval of high-risk operations. Three kinds of approval row (lib/approval-schemas.ts):
//   - CALL: a HIGH-tier call does not run; it is held as an approval request plus a task AWAITING_APPROVAL,
//     and the agent is answered at once with both ids. Approved, the task is queued with exactly the held
//     arguments (the job queue runs it on any process); rejected it ends CANCELED, unanswered EXPIRED.
//   - ADVANCE: asked ahead with request_approval. Approved, it grants one call of that tool with exactly
//     those arguments (SHA-256), from that agent session, before it expires; the call consumes it in one
//     UPDATE, so it cannot be used twice or by a racing call.
//   - STANDING: an approver allowed a tool for one agent session until a time.
// Decisions lock the row (SELECT … FOR UPDATE): of two approvers racing, exactly one decision wins; a
// requester never decides their own request; a tool may require a second approver.
import type { TApprovalDecisionInput, TApprovalQuery } from "../../lib/approval-schemas";
import type { RequestContext } from "../context";
import type { AuditWriter } from "../audit/audit-writer";
import type { Db } from "../db/client";
import type { Logger } from "../logger";
import { toolError } from "../pipeline/tool-error";
import type { CallNotes, TaskContext, ToolCall } from "../pipeline/types";
import type { TaskEngine } from "../tasks/task-engine";
import { grantFor, isKeyedReplay } from "./approval-grant";
import { DEFAULT_APPROVAL_OPTIONS, type ApprovalOptions, type ApprovalScope, type ApprovalViewer, type HoldReason } from "./approval-scope";
import { decideApproval } from "./decide-approval";
import { expireApprovals } from "./expire-approvals";
import { holdCall } from "./hold-call";
import { getApproval, listApprovals } from "./list-approvals";
import { requestAdvance } from "./request-advance";
import { revealApproval } from "./reveal-approval";
import { revokeApproval } from "./revoke-approval";

// The subsystem's names, where the rest of the gateway has always imported them.
export { APPROVAL_META, APPROVAL_REQUESTED_EVENT, DEFAULT_APPROVAL_OPTIONS, type ApprovalOptions, type ApprovalViewer, type HoldReason } from "./approval-scope";
export { toApprovalDto } from "./approval-dto";

/** The approvals of one gateway: each operation is its own module (this folder), handed the same scope. */
export function createApprovals(deps: { db: Db; audit: AuditWriter; logger: Logger; engine: TaskEngine; options?: Partial<ApprovalOptions> }) {
  const opts: ApprovalOptions = { ...DEFAULT_APPROVAL_OPTIONS, ...deps.options };
  const log = deps.logger.child({ component: "approvals" });
  const s: ApprovalScope = { db: deps.db, audit: deps.audit, engine: deps.engine, opts, log };
  let sweepTimer: NodeJS.Timeout | undefined;
  let stopped = false;
  const expire = () => expireApprovals(s);

  return {
    options: opts,
    isKeyedReplay: (tc: TaskContext) => isKeyedReplay(s, tc),
    grantFor: (call: ToolCall, tc: TaskContext) => grantFor(s, call, tc),
    hold: (call: ToolCall, tc: TaskContext, ctx: RequestContext, notes: CallNotes, why: HoldReason) => holdCall(s, call, tc, ctx, notes, why),
    requestAdvance: (call: ToolCall, tc: TaskContext, ctx: RequestContext, why: HoldReason, justification: string) => requestAdvance(s, call, tc, ctx, why, justification),
    /** An approval of this agent session (get_approval_status), or null. */
    ownApproval: (agentSessionId: string, id: string) => s.db.approval.findFirst({ where: { id, agentSessionId } }),
    decide: (ctx: RequestContext, viewer: ApprovalViewer, id: string, input: TApprovalDecisionInput) => decideApproval(s, ctx, viewer, id, input),
    revoke: (ctx: RequestContext, viewer: ApprovalViewer, id: string) => revokeApproval(s, ctx, viewer, id),
    expire,
    reveal: (ctx: RequestContext, viewer: ApprovalViewer, id: string) => revealApproval(s, ctx, viewer, id),
    list: (viewer: ApprovalViewer, q: TApprovalQuery) => listApprovals(s, viewer, q),
    get: (viewer: ApprovalViewer, id: string) => getApproval(s, viewer, id),
    /** Starts this process's expiry sweep (once). */
    start() {
      if (sweepTimer || stopped) return;
      const tick = () => {
        sweepTimer = setTimeout(() => {
          void expire()
            .catch((err: unknown) => log.error({ err }, "approval expiry failed"))
            .finally(() => {
              if (!stopped) tick();
            });
        }, opts.sweepIntervalMs);
        sweepTimer.unref();
      };
      tick();
    },
    close() {
      stopped = true;
      if (sweepTimer) clearTimeout(sweepTimer);
    },
  };
}

export type Approvals = ReturnType<typeof createApprovals>;

/** A held call's or request's refusal when approval is impossible (no agent session: the console's "try it"). */
export const approvalUnavailable = (tool: string) =>
  toolError("approval_required", `${tool} is a high-risk tool and runs only after a person approves it. Call it from an agent session (which can wait for an approver), or ask an approver.`);
