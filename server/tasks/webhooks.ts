// Task webhooks: when a task of an agent session with a callback URL finishes, the completion is POSTed to that
// URL, signed with the session's secret (Stripe-style `t=<unix seconds>,v1=<hex HMAC-SHA256>`), retried with
// backoff, and every attempt is kept on the delivery row (and as a `webhook` task event).
//
// Delivery is at least once: a receiver dedupes by the x-portcullis-delivery header. Exactly one process sends
// a given attempt — it claims the row (PENDING/RETRYING → SENDING) in one UPDATE first. The claim is a lease:
// a row left SENDING by a process that died is claimable again once the lease has run out. The job queue side
// (scheduling an attempt, the sweep of lost ones) is in webhook-jobs.ts.
//
// Sent through net/outbound-url.ts: the URL's host is resolved and checked at send time (no loopback, private or
// metadata addresses unless an admin allowed the host), the connection goes to the checked address, and a 3xx is
// answered as it is (never followed: the URL the user registered is the only one that gets the payload).
import { TASK_COMPLETED_EVENT, type TTaskWebhookPayload, type TWebhookDelivery, type TWebhookDeliveryStatus } from "../../lib/webhook-schemas";
import { toJson, type Db, type DbTx, type Prisma, type Task } from "../db/client";
import type { Logger } from "../logger";
import { OutboundUrlError, postOutbound, type OutboundPolicy } from "../net/outbound-url";
import { VERSION } from "../version";
import { signWebhook } from "./webhook-signature";

export { newCallbackSecret, signWebhook, verifyWebhookSignature } from "./webhook-signature";

export type WebhookDeliveryRow = Prisma.WebhookDeliveryModel;

export const DEFAULT_WEBHOOK_BACKOFF_MS: readonly number[] = [5_000, 30_000, 120_000, 600_000, 1_800_000];
export const DEFAULT_WEBHOOK_TIMEOUT_MS = 10_000;
/** How long a claimed (SENDING) row stays another process's beyond the request timeout. */
const LEASE_GRACE_MS = 60_000;
const MAX_ERROR_CHARS = 300;

// ── queue ──────────────────────────────────────────────────────────────────────────────────────────────

export type WebhookInput = { taskId?: string; approvalId?: string; event: string; url: string; payload: unknown };

/**
 * A PENDING delivery due now. Call it in the transaction that finishes the task, and queue its first attempt in
 * that transaction too (webhook-jobs.ts scheduleWebhookJob) or after the commit.
 */
export async function enqueueWebhook(tx: DbTx, input: WebhookInput): Promise<string> {
  const row = await tx.webhookDelivery.create({
    data: {
      taskId: input.taskId ?? null,
      approvalId: input.approvalId ?? null,
      event: input.event,
      url: input.url,
      payload: toJson(input.payload),
      status: "PENDING",
      nextAttemptAt: new Date(),
    },
    select: { id: true },
  });
  return row.id;
}

type FinishedTask = Pick<
  Task,
  "id" | "status" | "toolName" | "errorCode" | "errorMessage" | "createdAt" | "startedAt" | "finishedAt" | "resultBytes" | "resultTruncated" | "agentSessionId"
>;

/**
 * What a receiver is told when a task finishes. No result body: results can be large and sensitive, so the
 * receiver fetches it with the MCP tool get_task_result or GET /api/v1/tasks/{id}, authenticated as usual.
 */
export function taskWebhookPayload(task: FinishedTask): TTaskWebhookPayload {
  return {
    event: TASK_COMPLETED_EVENT,
    task: {
      id: task.id,
      status: task.status,
      tool: task.toolName,
      errorCode: task.errorCode,
      errorMessage: task.errorMessage,
      createdAt: task.createdAt.toISOString(),
      startedAt: task.startedAt?.toISOString() ?? null,
      finishedAt: task.finishedAt?.toISOString() ?? null,
      resultBytes: task.resultBytes,
      resultTruncated: task.resultTruncated,
    },
    sessionId: task.agentSessionId,
  };
}

/**
 * Enqueues the task.completed webhook of a finished task when its session registered a callback URL (the
 * task's own callbackUrl wins); null when there is none. Same transaction as the task's final update.
 */
export async function enqueueTaskWebhook(tx: DbTx, task: FinishedTask & Pick<Task, "callbackUrl">): Promise<string | null> {
  const session = task.agentSessionId
    ? await tx.agentSession.findUnique({ where: { id: task.agentSessionId }, select: { callbackUrl: true, callbackSecret: true } })
    : null;
  const url = task.callbackUrl ?? session?.callbackUrl;
  if (!url || !session?.callbackSecret) return null;
  return enqueueWebhook(tx, { taskId: task.id, event: TASK_COMPLETED_EVENT, url, payload: taskWebhookPayload(task) });
}

/** `secretFor` for deliverWebhook: the secret of the session whose task (or approval) the delivery is about. */
export function sessionSecretFor(db: DbTx): (delivery: WebhookDeliveryRow) => Promise<string | null> {
  return async (d) => {
    const owner = d.taskId
      ? await db.task.findUnique({ where: { id: d.taskId }, select: { agentSession: { select: { callbackSecret: true } } } })
      : d.approvalId
        ? await db.approval.findUnique({ where: { id: d.approvalId }, select: { agentSession: { select: { callbackSecret: true } } } })
        : null;
    return owner?.agentSession?.callbackSecret ?? null;
  };
}

// ── delivery ───────────────────────────────────────────────────────────────────────────────────────────

export type WebhookDeps = {
  db: Db;
  logger: Logger;
  /** The signing secret for a delivery; null skips it (the session is gone or has no callback any more). */
  secretFor: (delivery: WebhookDeliveryRow) => Promise<string | null>;
  /** Runs deliverWebhook(deps, deliveryId) again at `runAt` (a job queue; a timer in tests). */
  schedule: (deliveryId: string, runAt: Date) => Promise<void>;
  /** Waits before the 2nd, 3rd, … attempt; attempts = backoffMs.length + 1. */
  backoffMs?: readonly number[];
  timeoutMs?: number;
  /** Which hosts may be private or loopback (net/outbound-url.ts); every other URL must resolve to public addresses. */
  outbound: OutboundPolicy;
};

export type DeliverOutcome = { status: Extract<TWebhookDeliveryStatus, "DELIVERED" | "RETRYING" | "FAILED" | "SKIPPED"> };

type Attempt = { ok: true; statusCode: number } | { ok: false; statusCode?: number; error: string };

/**
 * One attempt at a delivery. SKIPPED also when the row cannot be claimed: it is unknown, finished, or being
 * sent by another process (which records that attempt).
 */
export async function deliverWebhook(deps: WebhookDeps, deliveryId: string): Promise<DeliverOutcome> {
  const { db, logger } = deps;
  const backoffMs = deps.backoffMs ?? DEFAULT_WEBHOOK_BACKOFF_MS;
  const timeoutMs = deps.timeoutMs ?? DEFAULT_WEBHOOK_TIMEOUT_MS;
  const now = new Date();
  const [row] = await db.webhookDelivery.updateManyAndReturn({
    where: {
      id: deliveryId,
      OR: [{ status: { in: ["PENDING", "RETRYING"] } }, { status: "SENDING", nextAttemptAt: { lt: now } }],
    },
    data: { status: "SENDING", nextAttemptAt: new Date(now.getTime() + timeoutMs + LEASE_GRACE_MS) },
  });
  if (!row) {
    logger.debug({ deliveryId }, "webhook delivery not claimed (finished, or being sent by another process)");
    return { status: "SKIPPED" };
  }
  const attempt = row.attempts + 1;
  const log = logger.child({ deliveryId, taskId: row.taskId, event: row.event, attempt });

  const result = await attemptDelivery(deps, row, timeoutMs);
  if (result === "no_secret") {
    log.warn("webhook skipped: no callback secret");
    const error = "no callback secret: the agent session is gone or has no callback";
    return record(deps, row, { status: "SKIPPED", attempt, result: { ok: false, error }, backoffMs });
  }
  const status = result.ok ? "DELIVERED" : attempt > backoffMs.length ? "FAILED" : "RETRYING";
  if (result.ok) log.info({ statusCode: result.statusCode }, "webhook delivered");
  else log.warn({ statusCode: result.statusCode, error: result.error, next: status }, "webhook attempt failed");
  return record(deps, row, { status, attempt, result, backoffMs });
}

async function attemptDelivery(deps: WebhookDeps, row: WebhookDeliveryRow, timeoutMs: number): Promise<Attempt | "no_secret"> {
  let secret: string | null;
  try {
    secret = await deps.secretFor(row);
  } catch (err) {
    return { ok: false, error: `secret lookup failed: ${errorText(err)}` };
  }
  return secret === null ? "no_secret" : post(row, secret, timeoutMs, deps.outbound);
}

async function post(row: WebhookDeliveryRow, secret: string, timeoutMs: number, outbound: OutboundPolicy): Promise<Attempt> {
  try {
    const body = JSON.stringify(row.payload);
    const headers = {
      "content-type": "application/json",
      "user-agent": `Portcullis-Webhooks/${VERSION}`,
      "x-portcullis-event": row.event,
      "x-portcullis-delivery": row.id,
      "x-portcullis-signature": signWebhook(secret, Date.now() / 1000, body),
    };
    const res = await postOutbound(row.url, { body, headers, timeoutMs }, outbound);
    if (res.status >= 200 && res.status < 300) return { ok: true, statusCode: res.status };
    const error =
      res.status >= 300 && res.status < 400
        ? `HTTP ${String(res.status)}: redirects are not followed${res.location !== null ? ` (to ${res.location})` : ""}`
        : `HTTP ${String(res.status)}`;
    return { ok: false, statusCode: res.status, error };
  } catch (err) {
    if (err instanceof OutboundUrlError) return { ok: false, error: `${err.code}: ${err.message}` };
    if (err instanceof Error && err.name === "TimeoutError") return { ok: false, error: `timed out after ${String(timeoutMs)} ms` };
    return { ok: false, error: errorText(err) };
  }
}

/** `fetch failed: connect ECONNREFUSED 127.0.0.1:9` rather than fetch's bare "fetch failed". */
function errorText(err: unknown): string {
  if (!(err instanceof Error)) return String(err);
  const cause = err.cause instanceof Error ? `: ${err.cause.message}` : "";
  return `${err.message}${cause}`;
}

async function record(
  deps: WebhookDeps,
  row: WebhookDeliveryRow,
  o: { status: DeliverOutcome["status"]; attempt: number; result: Attempt; backoffMs: readonly number[] },
): Promise<DeliverOutcome> {
  const now = new Date();
  const sent = o.status !== "SKIPPED";
  const nextAttemptAt = o.status === "RETRYING" ? new Date(now.getTime() + (o.backoffMs[o.attempt - 1] ?? 0)) : null;
  const statusCode = o.result.statusCode;
  const error = o.result.ok ? null : o.result.error.slice(0, MAX_ERROR_CHARS);
  await deps.db.$transaction(async (tx) => {
    await tx.webhookDelivery.update({
      where: { id: row.id },
      data: {
        status: o.status,
        nextAttemptAt,
        ...(sent && { attempts: o.attempt }),
        ...(statusCode !== undefined && { lastStatusCode: statusCode }),
        ...(o.status === "DELIVERED" ? { deliveredAt: now, lastError: null } : { lastError: error }),
      },
    });
    if (row.taskId) {
      const data = { deliveryId: row.id, attempt: o.attempt, status: o.status, ...(statusCode !== undefined && { statusCode }), ...(error !== null && { error }) };
      await tx.taskEvent.create({ data: { taskId: row.taskId, type: "webhook", data } });
    }
  });
  if (nextAttemptAt) {
    // The row says when it is due, so a failed schedule is logged, not thrown: a sweep of due rows still finds it.
    await deps.schedule(row.id, nextAttemptAt).catch((err: unknown) => deps.logger.error({ err, deliveryId: row.id }, "could not schedule the webhook retry"));
  }
  return { status: o.status };
}

// ── read side ──────────────────────────────────────────────────────────────────────────────────────────

export function toDeliveryDto(d: WebhookDeliveryRow): TWebhookDelivery {
  return {
    id: d.id,
    event: d.event,
    url: d.url,
    status: d.status as TWebhookDeliveryStatus,
    attempts: d.attempts,
    lastStatusCode: d.lastStatusCode,
    lastError: d.lastError,
    nextAttemptAt: d.nextAttemptAt?.toISOString() ?? null,
    deliveredAt: d.deliveredAt?.toISOString() ?? null,
    createdAt: d.createdAt.toISOString(),
  };
}

/** A task's deliveries, oldest first. The caller checks that the viewer may see the task. */
export async function listDeliveries(db: DbTx, q: { taskId: string }): Promise<TWebhookDelivery[]> {
  const rows = await db.webhookDelivery.findMany({ where: { taskId: q.taskId }, orderBy: [{ createdAt: "asc" }, { id: "asc" }], take: 100 });
  return rows.map(toDeliveryDto);
}
