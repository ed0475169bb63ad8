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
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import type { TApproval, TApprovalDecisionInput, TApprovalDetail, TApprovalPage, TApprovalQuery, TApprovalReveal, TApprovalStatus } from "../../lib/approval-schemas";
import { toPage } from "../../lib/pagination";
import { storableText } from "../db/storable";
import { auditWriterFor, type AuditRow } from "../audit/audit-writer";
import type { RequestContext } from "../context";
import { toJson, type Approval, type Db, type DbTx, type Prisma, type Role, type Task } from "../db/client";
import { forbidden, GatewayError, notFound } from "../errors";
import { publishChange } from "../events/change-bus";
import type { Logger } from "../logger";
import { toolError, type ToolErrorCode } from "../pipeline/tool-error";
import type { CallNotes, ToolCall } from "../pipeline/types";
import { hashArguments } from "../tasks/hash-arguments";
import { lockClaim } from "../tasks/lock-claim";
import type { TaskContext, TaskEngine } from "../tasks/task-engine";
import { TASK_META } from "../tasks/task-switch";
import { webhookOnFinish } from "../tasks/webhook-jobs";
import { enqueueWebhook } from "../tasks/webhooks";
import { scheduleWebhookJob } from "../tasks/webhook-jobs";
import { redactor } from "../audit/redaction";

export type ApprovalOptions = {
  /** An unanswered request expires after this long. */
  ttlMs: number;
  /** An approved request_approval grant must be used within this long. */
  useWindowMs: number;
  /** New requests are POSTed here (HMAC-signed with webhookSecret), for chat notifications. */
  webhookUrl: string | null;
  webhookSecret: string | null;
  /** How often each process expires overdue requests. */
  sweepIntervalMs: number;
};

export const DEFAULT_APPROVAL_OPTIONS: ApprovalOptions = {
  ttlMs: 24 * 3600_000,
  useWindowMs: 3600_000,
  webhookUrl: null,
  webhookSecret: null,
  sweepIntervalMs: 5000,
};

/** Who looks: approvers and admins see every request, users only their own. */
export type ApprovalViewer = { userId: string; role: Role };

export const APPROVAL_META = "portcullis/approval";
export const APPROVAL_REQUESTED_EVENT = "approval.requested";

const isApprover = (role: Role) => role === "APPROVER" || role === "ADMIN";

type ApprovalRow = Approval & {
  requester: { email: string };
  agentSession: { agentId: string; prefix: string } | null;
  tool: { riskTier: "LOW" | "MEDIUM" | "HIGH"; inputSchema?: unknown } | null;
  task: { status: Task["status"] } | null;
  decisions: { approverId: string; decision: string; comment: string | null; createdAt: Date; approver: { email: string } }[];
};

const INCLUDE = {
  requester: { select: { email: true } },
  agentSession: { select: { agentId: true, prefix: true } },
  tool: { select: { riskTier: true } },
  task: { select: { status: true } },
  decisions: { include: { approver: { select: { email: true } } }, orderBy: { createdAt: "asc" } },
} as const satisfies Prisma.ApprovalInclude;

export function toApprovalDto(a: ApprovalRow, viewer?: ApprovalViewer): TApproval {
  return {
    id: a.id,
    kind: a.kind,
    status: a.status,
    tool: a.toolName,
    riskTier: a.tool?.riskTier ?? null,
    reason: a.reason,
    ruleId: a.ruleId,
    requesterId: a.requesterId,
    requesterEmail: a.requester.email,
    agentId: a.agentId ?? a.agentSession?.agentId ?? null,
    agentSessionId: a.agentSessionId,
    agentSessionPrefix: a.agentSession?.prefix ?? null,
    justification: a.justification === null ? null : redactor().text(a.justification),
    arguments: (a.argumentsRedacted ?? {}) as Record<string, unknown>,
    argumentsHash: a.argumentsHash,
    requiredApprovals: a.requiredApprovals,
    decisions: a.decisions.map((d) => ({
      approverId: d.approverId,
      approverEmail: d.approver.email,
      decision: d.decision === "reject" ? "reject" : "approve",
      comment: d.comment,
      at: d.createdAt.toISOString(),
    })),
    taskId: a.taskId,
    taskStatus: a.task?.status ?? null,
    createdAt: a.createdAt.toISOString(),
    expiresAt: a.expiresAt.toISOString(),
    decidedAt: a.decidedAt?.toISOString() ?? null,
    decisionComment: a.decisionComment,
    standingUntil: a.standingUntil?.toISOString() ?? null,
    usedAt: a.usedAt?.toISOString() ?? null,
    canDecide:
      !!viewer &&
      isApprover(viewer.role) &&
      a.status === "PENDING" &&
      a.requesterId !== viewer.userId &&
      !a.decisions.some((d) => d.approverId === viewer.userId),
  };
}

/** Why a person must decide (from the tier step or a rule). */
export type HoldReason = { reason: string; ruleId?: string | null | undefined };

export function createApprovals(deps: { db: Db; logger: Logger; engine: TaskEngine; options?: Partial<ApprovalOptions> }) {
  const opts: ApprovalOptions = { ...DEFAULT_APPROVAL_OPTIONS, ...deps.options };
  const { db, engine } = deps;
  const log = deps.logger.child({ component: "approvals" });
  let sweepTimer: NodeJS.Timeout | undefined;
  let stopped = false;

  async function audit(row: Partial<AuditRow> & { action: string }, a: Approval, ctx?: RequestContext) {
    try {
      await auditWriterFor(db).write({
        requestId: ctx?.requestId ?? null,
        category: "gateway",
        actorType: ctx?.actor.type ?? "system",
        userId: ctx?.actor.type === "user" ? ctx.actor.userId : null,
        ip: ctx?.ip ?? null,
        endpoint: null,
        serverSlug: a.toolName.split("__")[0] ?? null,
        toolName: a.toolName,
        agentId: a.agentId,
        sessionId: a.agentSessionId,
        targetType: "approval",
        arguments: a.arguments ?? {},
        decision: null,
        ruleId: a.ruleId,
        reason: null,
        status: "ok",
        errorCode: null,
        durationMs: null,
        resultBytes: null,
        truncated: false,
        upstreamVersion: null,
        approvalId: a.id,
        taskId: a.taskId,
        ...row,
      });
    } catch (err) {
      log.error({ err, approvalId: a.id }, `audit of ${row.action} failed`);
    }
  }

  /** In the transaction that makes a request: the approvers' webhook, when one is configured. */
  async function notifyApprovers(tx: DbTx, a: Approval) {
    if (!opts.webhookUrl || !opts.webhookSecret) return;
    const id = await enqueueWebhook(tx, {
      approvalId: a.id,
      event: APPROVAL_REQUESTED_EVENT,
      url: opts.webhookUrl,
      payload: {
        event: APPROVAL_REQUESTED_EVENT,
        approval: {
          id: a.id,
          kind: a.kind,
          tool: a.toolName,
          reason: a.reason,
          justification: a.justification === null ? null : redactor().text(a.justification),
          arguments: a.argumentsRedacted,
          requiredApprovals: a.requiredApprovals,
          createdAt: a.createdAt.toISOString(),
          expiresAt: a.expiresAt.toISOString(),
        },
      },
    });
    await scheduleWebhookJob(tx, id);
  }

  function baseRow(call: ToolCall, tc: TaskContext, why: HoldReason, justification: string | null) {
    return {
      requesterId: tc.ownerId,
      agentSessionId: tc.agentSessionId,
      agentId: call.grant?.agentId ?? null,
      toolId: call.tool.id,
      toolName: call.tool.gatewayName,
      arguments: toJson(call.arguments),
      argumentsRedacted: toJson(redactor().value(call.arguments)),
      argumentsHash: hashArguments(call.arguments),
      // The caller's own words: made storable (NUL, lone surrogates) as the audit row's intent is.
      justification: justification === null ? null : storableText(justification, 2000).text,
      ruleId: why.ruleId ?? null,
      reason: why.reason.slice(0, 2000),
      requiredApprovals: Math.min(2, Math.max(1, call.tool.requiredApprovals ?? 1)),
      expiresAt: new Date(Date.now() + opts.ttlMs),
    };
  }

  /**
   * Before holding a HIGH-tier call: an approval that lets it run now — a standing approval of the tool for the
   * session, or an approved request_approval grant for exactly these arguments (consumed here, once).
   */
  async function grantFor(call: ToolCall, tc: TaskContext): Promise<Approval | null> {
    const standing = await db.approval.findFirst({
      where: { kind: "STANDING", status: "APPROVED", agentSessionId: tc.agentSessionId, toolName: call.tool.gatewayName, standingUntil: { gt: new Date() } },
    });
    if (standing) return standing;
    // FOR UPDATE, not SKIP LOCKED: the row may be locked by anything that reads it to change it (an approver's
    // decision or withdrawal that then fails, the expiry sweep), and skipping it would hold an approved call as
    // if it had no grant. A racing call that used it up meanwhile no longer matches once the lock is free.
    const [used] = await db.$queryRaw<Approval[]>`
      UPDATE approvals SET status = 'USED', "usedAt" = now(), "updatedAt" = now()
      WHERE id = (
        SELECT id FROM approvals
        WHERE kind = 'ADVANCE' AND status = 'APPROVED' AND "agentSessionId" = ${tc.agentSessionId}
          AND "toolName" = ${call.tool.gatewayName} AND "argumentsHash" = ${hashArguments(call.arguments)} AND "expiresAt" > now()
        ORDER BY "createdAt" LIMIT 1 FOR UPDATE)
      RETURNING *`;
    return used ?? null;
  }

  /**
   * A retry with an idempotency key whose first call already has its task (not one waiting for approval): the
   * task switch answers it with that task, so it must neither use up a grant nor be held for a person again.
   */
  async function isKeyedReplay(tc: TaskContext): Promise<boolean> {
    if (!tc.idempotencyKey) return false;
    const first = await db.task.findUnique({ where: { agentSessionId_idempotencyKey: { agentSessionId: tc.agentSessionId, idempotencyKey: tc.idempotencyKey } }, select: { status: true } });
    return !!first && first.status !== "AWAITING_APPROVAL";
  }

  function heldAnswer(a: Approval, task: Pick<Task, "id" | "status">, replay: boolean): CallToolResult {
    const lead = replay
      ? `This call is already waiting for approval ${a.id}; it was not submitted again.`
      : `${a.toolName} is high-risk: it was not run. A person must approve it first (approval ${a.id}${a.requiredApprovals > 1 ? `, ${String(a.requiredApprovals)} approvers` : ""}).`;
    return {
      content: [
        {
          type: "text",
          text: `${lead} Once approved it runs as task ${task.id} with exactly these arguments. Follow it with get_task_status {"task_id":"${task.id}"} about every ${String(engine.options.pollSeconds)} seconds (AWAITING_APPROVAL until someone decides), then get_task_result. If nobody decides by ${a.expiresAt.toISOString()} it expires.`,
        },
      ],
      structuredContent: { task_id: task.id, status: task.status, approval_id: a.id, approval_status: a.status, expires_at: a.expiresAt.toISOString() },
      _meta: {
        [TASK_META]: { taskId: task.id, status: task.status, retryAfterSeconds: engine.options.pollSeconds, ...(replay && { replay: true }) },
        [APPROVAL_META]: { approvalId: a.id, status: a.status },
      },
    };
  }

  /** Holds a HIGH-tier call of an agent session: an approval request and its task, answered at once. */
  async function hold(call: ToolCall, tc: TaskContext, ctx: RequestContext, notes: CallNotes, why: HoldReason): Promise<CallToolResult> {
    const hash = hashArguments(call.arguments);
    const intent = typeof call.meta?.intent === "string" ? call.meta.intent : null;
    // Look and insert under one lock: two identical calls racing (on any processes) make one request.
    const held = await db.$transaction(async (tx) => {
      await lockClaim(tx, ["hold", tc.agentSessionId, call.tool.gatewayName, hash]);
      const waiting = await tx.approval.findFirst({
        where: { kind: "CALL", status: "PENDING", agentSessionId: tc.agentSessionId, toolName: call.tool.gatewayName, argumentsHash: hash, expiresAt: { gt: new Date() } },
        include: { task: true },
        orderBy: { createdAt: "desc" },
      });
      if (waiting?.task) return { approval: waiting, task: waiting.task, replay: true };
      const t = await engine.createAwaiting(tx, call, tc, ctx);
      const a = await tx.approval.create({ data: { ...baseRow(call, tc, why, intent), kind: "CALL", taskId: t.id } });
      await notifyApprovers(tx, a);
      await publishChange(tx, { kind: "approval", approvalId: a.id, status: a.status });
      return { approval: a, task: t, replay: false };
    });
    notes.approvalId = held.approval.id;
    notes.taskId = held.task.id;
    if (!held.replay) await audit({ action: "approval.requested", reason: held.approval.reason, decision: "require_approval" }, held.approval, ctx);
    return heldAnswer(held.approval, held.task, held.replay);
  }

  /** request_approval: asks ahead for one call of `call.tool` with exactly `call.arguments`. */
  async function requestAdvance(call: ToolCall, tc: TaskContext, ctx: RequestContext, why: HoldReason, justification: string): Promise<Approval> {
    const hash = hashArguments(call.arguments);
    const asked = await db.$transaction(async (tx) => {
      await lockClaim(tx, ["advance", tc.agentSessionId, call.tool.gatewayName, hash]);
      const waiting = await tx.approval.findFirst({
        where: { kind: "ADVANCE", status: { in: ["PENDING", "APPROVED"] }, agentSessionId: tc.agentSessionId, toolName: call.tool.gatewayName, argumentsHash: hash, expiresAt: { gt: new Date() } },
        orderBy: { createdAt: "desc" },
      });
      if (waiting) return { approval: waiting, created: false };
      const a = await tx.approval.create({ data: { ...baseRow(call, tc, why, justification), kind: "ADVANCE" } });
      await notifyApprovers(tx, a);
      await publishChange(tx, { kind: "approval", approvalId: a.id, status: a.status });
      return { approval: a, created: true };
    });
    if (asked.created) await audit({ action: "approval.requested", reason: asked.approval.reason, decision: "require_approval", endpoint: tc.endpoint }, asked.approval, ctx);
    return asked.approval;
  }

  /** An approval of this agent session (get_approval_status), or null. */
  const ownApproval = (agentSessionId: string, id: string) => db.approval.findFirst({ where: { id, agentSessionId } });

  /** Locks the row for a decision; 404 for requests the viewer may not see. */
  async function lockForDecision(tx: DbTx, viewer: ApprovalViewer, id: string): Promise<Approval> {
    const [row] = await tx.$queryRaw<Approval[]>`SELECT * FROM approvals WHERE id = ${id} FOR UPDATE`;
    if (!row || (!isApprover(viewer.role) && row.requesterId !== viewer.userId)) throw notFound(`Approval request ${id}`);
    if (!isApprover(viewer.role)) throw forbidden("Only approvers and admins decide approval requests.");
    if (row.requesterId === viewer.userId) throw new GatewayError("forbidden", "You cannot decide your own request: another approver must.");
    return row;
  }

  async function endTask(tx: DbTx, taskId: string | null, status: "CANCELED" | "EXPIRED", errorCode: ToolErrorCode, message: string, event: Record<string, unknown>): Promise<Task | null> {
    if (!taskId) return null;
    const now = new Date();
    const changed = await tx.task.updateMany({
      where: { id: taskId, status: "AWAITING_APPROVAL" },
      data: { status, errorCode, errorMessage: message.slice(0, 2000), finishedAt: now, expiresAt: engine.expiryFrom(now) },
    });
    if (!changed.count) return null;
    const t = await tx.task.findUniqueOrThrow({ where: { id: taskId } });
    await tx.taskEvent.create({ data: { taskId, type: status === "CANCELED" ? "canceled" : "expired", data: toJson(event) } });
    await webhookOnFinish(tx, t);
    await publishChange(tx, { kind: "task", taskId, status });
    return t;
  }

  /** An approver's decision. 403 own request, 409 once decided (or already decided by this approver), 404 unknown. */
  async function decide(ctx: RequestContext, viewer: ApprovalViewer, id: string, input: TApprovalDecisionInput): Promise<TApprovalDetail> {
    const approverEmail = ctx.actor.type === "user" ? ctx.actor.email : "an approver";
    const comment = input.comment?.trim() || null;
    type Outcome = { expired: Approval } | { row: Approval; task: Task | null; standing: Approval | null; status: TApprovalStatus };
    const outcome = await db.$transaction(async (tx): Promise<Outcome> => {
      const a = await lockForDecision(tx, viewer, id);
      // Past its time but not yet swept: it is expired (committed below), not decided.
      if (a.status === "PENDING" && a.expiresAt <= new Date()) return { expired: a };
      // Expired by the sweep or at decision time: the same answer, whichever got there first.
      if (a.status === "EXPIRED") throw new GatewayError("conflict", `Approval request ${id} has expired; it can no longer be decided.`, { status: a.status });
      if (a.status !== "PENDING") throw new GatewayError("conflict", `Approval request ${id} has already been decided (${a.status}).`, { status: a.status });
      const mine = await tx.approvalDecision.findUnique({ where: { approvalId_approverId: { approvalId: id, approverId: viewer.userId } } });
      if (mine) throw new GatewayError("conflict", `You already approved request ${id}; it needs another approver.`, { status: a.status });
      await tx.approvalDecision.create({ data: { approvalId: id, approverId: viewer.userId, decision: input.decision, comment } });
      const now = new Date();
      let task: Task | null = null;
      let status: TApprovalStatus = "PENDING";
      let standing: Approval | null = null;
      if (input.decision === "reject") {
        status = "REJECTED";
        await tx.approval.update({ where: { id }, data: { status, decidedAt: now, decisionComment: comment } });
        // The approver is named by structure (the task event's `by`, the audit events' actor), shown in the clear
        // to those who may see it; this text reaches the agent and the audit log's reason, where redaction masks
        // any address, so it names nobody.
        const why = `Rejected by an approver${comment ? `: ${comment}` : "."}`;
        task = await endTask(tx, a.taskId, "CANCELED", "approval_rejected", why, { by: approverEmail, reason: comment, approvalId: id });
      } else {
        const approvals = await tx.approvalDecision.count({ where: { approvalId: id, decision: "approve" } });
        if (approvals >= a.requiredApprovals) {
          status = a.kind === "CALL" ? "USED" : "APPROVED";
          await tx.approval.update({
            where: { id },
            data: {
              status,
              decidedAt: now,
              decisionComment: comment,
              ...(a.kind === "CALL" && { usedAt: now }),
              ...(a.kind === "ADVANCE" && { expiresAt: new Date(now.getTime() + opts.useWindowMs) }),
            },
          });
          if (a.taskId) await engine.release(tx, a.taskId, { by: approverEmail, comment, approvalId: id });
          if (input.standingMinutes && a.agentSessionId) {
            const until = new Date(now.getTime() + input.standingMinutes * 60_000);
            standing = await tx.approval.create({
              data: {
                kind: "STANDING",
                status: "APPROVED",
                requesterId: a.requesterId,
                agentSessionId: a.agentSessionId,
                agentId: a.agentId,
                toolId: a.toolId,
                toolName: a.toolName,
                arguments: {},
                argumentsRedacted: {},
                argumentsHash: "*",
                justification: a.justification,
                reason: `Standing approval from request ${id}`,
                expiresAt: until,
                standingUntil: until,
                decidedAt: now,
                decisionComment: comment,
              },
            });
            await tx.approvalDecision.create({ data: { approvalId: standing.id, approverId: viewer.userId, decision: "approve", comment } });
          }
        }
      }
      await publishChange(tx, { kind: "approval", approvalId: id, status });
      const row = await tx.approval.findUniqueOrThrow({ where: { id } });
      return { row, task, standing, status };
    });
    if ("expired" in outcome) {
      const task = await db.$transaction((tx) => expireOne(tx, outcome.expired));
      await audit({ action: "approval.expired", decision: "deny", status: "error", errorCode: "approval_expired" }, { ...outcome.expired, status: "EXPIRED" });
      if (task) await engine.auditTransition(task, task.toolName);
      throw new GatewayError("conflict", `Approval request ${id} has expired; it can no longer be decided.`, { status: "EXPIRED" });
    }
    const action = input.decision === "reject" ? "approval.rejected" : outcome.status === "PENDING" ? "approval.approved_first" : "approval.approved";
    await audit({ action, reason: comment, decision: input.decision === "reject" ? "deny" : "allow" }, outcome.row, ctx);
    if (outcome.standing) await audit({ action: "approval.standing_granted", reason: comment, decision: "allow", details: { until: outcome.standing.standingUntil?.toISOString(), from: id } }, outcome.standing, ctx);
    if (outcome.task) await engine.auditTransition(outcome.task, outcome.task.toolName, ctx);
    return get(viewer, id);
  }

  /** Withdraws a standing approval or an unused request_approval grant (approvers; or a requester their own pending request). */
  async function revoke(ctx: RequestContext, viewer: ApprovalViewer, id: string): Promise<TApprovalDetail> {
    const row = await db.$transaction(async (tx) => {
      const [a] = await tx.$queryRaw<Approval[]>`SELECT * FROM approvals WHERE id = ${id} FOR UPDATE`;
      if (!a || (!isApprover(viewer.role) && a.requesterId !== viewer.userId)) throw notFound(`Approval request ${id}`);
      if (!isApprover(viewer.role) && a.status !== "PENDING") throw forbidden("Only approvers withdraw a granted approval.");
      if (!["PENDING", "APPROVED"].includes(a.status)) throw new GatewayError("conflict", `Approval ${id} is ${a.status}; there is nothing to withdraw.`, { status: a.status });
      await tx.approval.update({ where: { id }, data: { status: "CANCELED", decidedAt: a.decidedAt ?? new Date() } });
      await endTask(tx, a.taskId, "CANCELED", "approval_withdrawn", "The approval request was withdrawn.", { approvalId: id });
      await publishChange(tx, { kind: "approval", approvalId: id, status: "CANCELED" });
      return tx.approval.findUniqueOrThrow({ where: { id } });
    });
    await audit({ action: "approval.revoked", decision: "deny" }, row, ctx);
    return get(viewer, id);
  }

  async function expireOne(tx: DbTx, a: Approval): Promise<Task | null> {
    await tx.approval.update({ where: { id: a.id }, data: { status: "EXPIRED" } });
    await publishChange(tx, { kind: "approval", approvalId: a.id, status: "EXPIRED" });
    return endTask(tx, a.taskId, "EXPIRED", "approval_expired", `Nobody decided approval request ${a.id} before it expired at ${a.expiresAt.toISOString()}; the call was not made.`, { approvalId: a.id });
  }

  /** Expires overdue requests, unused grants and ended standing approvals (every process, every sweepIntervalMs). */
  async function expire(): Promise<number> {
    const done: { a: Approval; task: Task | null }[] = [];
    await db.$transaction(async (tx) => {
      const rows = await tx.$queryRaw<Approval[]>`
        SELECT * FROM approvals WHERE status IN ('PENDING', 'APPROVED') AND "expiresAt" <= now()
        ORDER BY "expiresAt" LIMIT 200 FOR UPDATE SKIP LOCKED`;
      for (const a of rows) done.push({ a, task: await expireOne(tx, a) });
    });
    for (const { a, task } of done) {
      await audit({ action: "approval.expired", decision: "deny", status: "error", errorCode: "approval_expired" }, { ...a, status: "EXPIRED" });
      if (task) await engine.auditTransition(task, task.toolName);
    }
    if (done.length) log.info({ count: done.length }, "expired approval requests");
    return done.length;
  }

  /** The full arguments of a request, for approvers; every reveal is audited. */
  async function reveal(ctx: RequestContext, viewer: ApprovalViewer, id: string): Promise<TApprovalReveal> {
    if (!isApprover(viewer.role)) throw forbidden("Only approvers and admins may reveal the full arguments.");
    const a = await db.approval.findUnique({ where: { id } });
    if (!a) throw notFound(`Approval request ${id}`);
    await audit({ action: "approval.revealed", category: "security", decision: "allow" }, a, ctx);
    return { arguments: (a.arguments ?? {}) as Record<string, unknown> };
  }

  function visible(viewer: ApprovalViewer): Prisma.ApprovalWhereInput {
    return isApprover(viewer.role) ? {} : { requesterId: viewer.userId };
  }

  async function list(viewer: ApprovalViewer, q: TApprovalQuery): Promise<TApprovalPage> {
    const where: Prisma.ApprovalWhereInput = {
      ...visible(viewer),
      ...(q.mine && { requesterId: viewer.userId }),
      ...(q.status?.length && { status: { in: q.status } }),
      ...(q.kind && { kind: q.kind }),
      ...(q.tool && { toolName: q.tool }),
      ...(q.requester && { requester: { email: q.requester.toLowerCase() } }),
      ...((q.from || q.to) && { createdAt: { ...(q.from && { gte: new Date(q.from) }), ...(q.to && { lt: new Date(q.to) }) } }),
    };
    // The pending queue reads oldest first (the longest wait on top); history newest first.
    const pendingOnly = q.status?.length === 1 && q.status[0] === "PENDING";
    const dir = pendingOnly ? "asc" : "desc";
    const rows = await db.approval.findMany({
      where,
      include: INCLUDE,
      orderBy: [{ createdAt: dir }, { id: dir }],
      take: q.limit + 1,
      ...(q.cursor && { cursor: { id: q.cursor }, skip: 1 }),
    });
    const p = toPage(rows, q.limit);
    return { items: p.items.map((r) => toApprovalDto(r, viewer)), nextCursor: p.nextCursor };
  }

  async function get(viewer: ApprovalViewer, id: string): Promise<TApprovalDetail> {
    const a = await db.approval.findFirst({ where: { id, ...visible(viewer) }, include: { ...INCLUDE, tool: { select: { riskTier: true, inputSchema: true } } } });
    if (!a) throw notFound(`Approval request ${id}`);
    return { ...toApprovalDto(a, viewer), inputSchema: (a.tool?.inputSchema as Record<string, unknown> | undefined) ?? null };
  }

  return {
    options: opts,
    isKeyedReplay,
    grantFor,
    hold,
    requestAdvance,
    ownApproval,
    decide,
    revoke,
    expire,
    reveal,
    list,
    get,
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
