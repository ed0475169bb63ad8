// Task webhooks against a real receiver (node:http on a free port) and the run's PostgreSQL: signatures the
// receiver verifies, retries on the backoff schedule, failures (status, redirect, timeout, refused), one request
// per attempt under concurrent delivery, and the delivery log on the row and in the task's events.
import { randomUUID } from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { Logger as GraphileLogger, run } from "graphile-worker";
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import type { TTaskWebhookPayload } from "../../lib/webhook-schemas";
import type { Task, User } from "../db/client";
import { createLogger } from "../logger";
import { createAgentSession } from "../sessions/agent-sessions";
import { insertUser, userContext } from "../test/contexts";
import { createTestDb, testDatabaseUrl, truncateAll } from "../test/test-db";
import { VERSION } from "../version";
import { DELIVER_WEBHOOK_JOB, scheduleWebhookJob, sweepWebhooks, webhookJob } from "./webhook-jobs";
import {
  deliverWebhook,
  enqueueTaskWebhook,
  enqueueWebhook,
  listDeliveries,
  newCallbackSecret,
  sessionSecretFor,
  verifyWebhookSignature,
  type DeliverOutcome,
  type WebhookDeps,
} from "./webhooks";

type Received = { method: string; path: string; headers: http.IncomingHttpHeaders; body: string; at: number };
type Respond = (req: http.IncomingMessage, res: http.ServerResponse, n: number) => void;

const db = createTestDb();
/** The receiver listens on loopback, which webhooks reach only when an admin allows the host. */
const LOOPBACK_ALLOWED = { allowedHosts: ["127.0.0.1"] };
const logger = createLogger("silent");
const received: Received[] = [];
let respond: Respond = (_req, res) => res.writeHead(200).end("ok");
let receiver: http.Server;
let base = "";
let user: User;

beforeAll(async () => {
  await truncateAll(db);
  user = await insertUser(db);
  receiver = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      received.push({ method: req.method ?? "", path: req.url ?? "", headers: req.headers, body: Buffer.concat(chunks).toString("utf8"), at: Date.now() });
      respond(req, res, received.length);
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${String((receiver.address() as AddressInfo).port)}`;
});

beforeEach(() => {
  received.length = 0;
  respond = (_req, res) => res.writeHead(200).end("ok");
});

afterAll(async () => {
  receiver.closeAllConnections();
  await new Promise((resolve) => receiver.close(resolve));
  await db.$disconnect();
});

/** A finished task of a session that registered `callbackUrl` (with a secret unless `secret` is null). */
async function sessionTask(opts: { path?: string; secret?: string | null; status?: Task["status"] } = {}) {
  const secret = opts.secret === undefined ? newCallbackSecret() : opts.secret;
  const session = await db.agentSession.create({
    data: {
      userId: user.id,
      agentId: "ci-bot",
      tokenHash: randomUUID(),
      prefix: "pcs_test00",
      tools: ["*"],
      paths: [],
      expiresAt: new Date(Date.now() + 3600_000),
      callbackUrl: `${base}${opts.path ?? "/hook"}`,
      callbackSecret: secret,
    },
  });
  const task = await db.task.create({
    data: {
      ownerId: user.id,
      agentSessionId: session.id,
      toolName: "orders__export",
      arguments: { month: "2026-01" },
      argumentsHash: randomUUID(),
      status: opts.status ?? "SUCCEEDED",
      result: { content: [{ type: "text", text: "the exported rows" }] },
      resultBytes: 1234,
      startedAt: new Date(Date.now() - 2000),
      finishedAt: new Date(),
    },
  });
  return { session, task, secret };
}

/** sessionTask, and its task.completed delivery enqueued as the engine does when the task finishes. */
async function finishedTask(opts: { path?: string; status?: Task["status"] } = {}) {
  const made = await sessionTask(opts);
  const deliveryId = await db.$transaction((tx) => enqueueTaskWebhook(tx, made.task));
  if (!deliveryId) throw new Error("no delivery enqueued");
  return { ...made, deliveryId };
}

/**
 * Delivers until the delivery stops retrying: `schedule` really waits until runAt and delivers again, as the
 * job queue does. Resolves with the final outcome and the schedule calls.
 */
async function deliverToTheEnd(deliveryId: string, over: Partial<WebhookDeps> = {}) {
  const scheduled: { runAt: Date; calledAt: number; rowNextAttemptAt: Date | null }[] = [];
  let resolve: (o: DeliverOutcome) => void = () => undefined;
  let reject: (err: unknown) => void = () => undefined;
  const done = new Promise<DeliverOutcome>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  const settle = (o: DeliverOutcome) => {
    if (o.status !== "RETRYING") resolve(o);
  };
  const deps: WebhookDeps = {
    db,
    logger,
    secretFor: sessionSecretFor(db),
    outbound: LOOPBACK_ALLOWED,
    backoffMs: [10, 20],
    schedule: async (id, runAt) => {
      const row = await db.webhookDelivery.findUniqueOrThrow({ where: { id } });
      scheduled.push({ runAt, calledAt: Date.now(), rowNextAttemptAt: row.nextAttemptAt });
      // This timer is the job queue's behaviour (graphile-worker runs a job at its run_at), not a wait of the
      // test's: the test waits for `done`, and the timing checks compare recorded times with runAt.
      setTimeout(() => void deliverWebhook(deps, id).then(settle, reject), Math.max(0, runAt.getTime() - Date.now()));
    },
    ...over,
  };
  settle(await deliverWebhook(deps, deliveryId));
  return { outcome: await done, scheduled };
}

const webhookEvents = async (taskId: string) =>
  (await db.taskEvent.findMany({ where: { taskId, type: "webhook" }, orderBy: { id: "asc" } })).map((e) => e.data);

describe("deliverWebhook", () => {
  it("POSTs the completion once, signed so the receiver verifies it, and records the delivery", async () => {
    const { session, task, secret, deliveryId } = await finishedTask();
    const before = Date.now();
    expect(await deliverWebhook({ db, logger, secretFor: sessionSecretFor(db), outbound: LOOPBACK_ALLOWED, schedule: () => Promise.reject(new Error("no retry expected")) }, deliveryId)).toEqual({ status: "DELIVERED" });

    expect(received).toHaveLength(1);
    const req = received[0]!;
    expect(req.method).toBe("POST");
    expect(req.path).toBe("/hook");
    expect(req.headers).toMatchObject({
      "content-type": "application/json",
      "user-agent": `Portcullis-Webhooks/${VERSION}`,
      "x-portcullis-event": "task.completed",
      "x-portcullis-delivery": deliveryId,
    });
    const signature = req.headers["x-portcullis-signature"] as string;
    expect(verifyWebhookSignature(secret!, signature, req.body)).toBe(true);
    expect(verifyWebhookSignature(newCallbackSecret(), signature, req.body)).toBe(false);
    expect(Number(/^t=(\d+),/.exec(signature)?.[1]) * 1000).toBeGreaterThanOrEqual(Math.floor(before / 1000) * 1000);

    const payload = JSON.parse(req.body) as TTaskWebhookPayload;
    expect(payload).toEqual({
      event: "task.completed",
      task: {
        id: task.id,
        status: "SUCCEEDED",
        tool: "orders__export",
        errorCode: null,
        errorMessage: null,
        createdAt: task.createdAt.toISOString(),
        startedAt: task.startedAt!.toISOString(),
        finishedAt: task.finishedAt!.toISOString(),
        resultBytes: 1234,
        resultTruncated: false,
      },
      sessionId: session.id,
    });
    expect(req.body).not.toContain("the exported rows");

    const row = await db.webhookDelivery.findUniqueOrThrow({ where: { id: deliveryId } });
    expect(row).toMatchObject({ status: "DELIVERED", attempts: 1, lastStatusCode: 200, lastError: null, nextAttemptAt: null, taskId: task.id });
    expect(row.deliveredAt!.getTime()).toBeGreaterThanOrEqual(before);
    expect(await webhookEvents(task.id)).toEqual([{ deliveryId, attempt: 1, status: "DELIVERED", statusCode: 200 }]);

    // A delivered row is not sent again.
    expect(await deliverWebhook({ db, logger, secretFor: sessionSecretFor(db), outbound: LOOPBACK_ALLOWED, schedule: async () => undefined }, deliveryId)).toEqual({ status: "SKIPPED" });
    expect(received).toHaveLength(1);
  });

  it("retries on the backoff schedule: 500, 500, then 200 is DELIVERED after 3 attempts", async () => {
    respond = (_req, res, n) => res.writeHead(n < 3 ? 500 : 200).end(n < 3 ? "database is down" : "ok");
    const { task, deliveryId } = await finishedTask();
    const { outcome, scheduled } = await deliverToTheEnd(deliveryId);

    expect(outcome).toEqual({ status: "DELIVERED" });
    expect(received).toHaveLength(3);
    // Each retry is asked for backoffMs[attempt - 1] after the failure, and really waits that long.
    expect(scheduled).toHaveLength(2);
    for (const [i, wait] of [10, 20].entries()) {
      const s = scheduled[i]!;
      expect(s.rowNextAttemptAt?.getTime()).toBe(s.runAt.getTime());
      expect(s.runAt.getTime() - s.calledAt).toBeLessThanOrEqual(wait);
      expect(s.runAt.getTime() - received[i]!.at).toBeGreaterThanOrEqual(wait);
      expect(s.runAt.getTime() - received[i]!.at).toBeLessThan(wait + 5000);
      expect(received[i + 1]!.at).toBeGreaterThanOrEqual(s.runAt.getTime());
      expect(received[i + 1]!.at - received[i]!.at).toBeGreaterThanOrEqual(wait);
    }
    // Every attempt has its own, freshly signed request for the same delivery.
    expect(new Set(received.map((r) => r.headers["x-portcullis-delivery"]))).toEqual(new Set([deliveryId]));

    const row = await db.webhookDelivery.findUniqueOrThrow({ where: { id: deliveryId } });
    expect(row).toMatchObject({ status: "DELIVERED", attempts: 3, lastStatusCode: 200, lastError: null, nextAttemptAt: null });
    expect(await webhookEvents(task.id)).toEqual([
      { deliveryId, attempt: 1, status: "RETRYING", statusCode: 500, error: "HTTP 500" },
      { deliveryId, attempt: 2, status: "RETRYING", statusCode: 500, error: "HTTP 500" },
      { deliveryId, attempt: 3, status: "DELIVERED", statusCode: 200 },
    ]);
  });

  it("gives up after the last attempt: FAILED with the last status code, and the receiver's body is not kept", async () => {
    respond = (_req, res) => res.writeHead(503).end("internal details the sender must not echo");
    const { task, deliveryId } = await finishedTask({ status: "FAILED" });
    const { outcome, scheduled } = await deliverToTheEnd(deliveryId);

    expect(outcome).toEqual({ status: "FAILED" });
    expect(received).toHaveLength(3);
    expect(scheduled).toHaveLength(2);
    const row = await db.webhookDelivery.findUniqueOrThrow({ where: { id: deliveryId } });
    expect(row).toMatchObject({ status: "FAILED", attempts: 3, lastStatusCode: 503, lastError: "HTTP 503", nextAttemptAt: null, deliveredAt: null });
    expect((await webhookEvents(task.id)).map((e) => (e as { status: string }).status)).toEqual(["RETRYING", "RETRYING", "FAILED"]);
    expect(JSON.stringify(await listDeliveries(db, { taskId: task.id }))).not.toContain("internal details");
  });

  it("does not follow a redirect: a 3xx is a failed attempt", async () => {
    respond = (_req, res) => res.writeHead(302, { location: `${base}/elsewhere` }).end();
    const { task, deliveryId } = await finishedTask();
    const { outcome } = await deliverToTheEnd(deliveryId, { backoffMs: [] });

    expect(outcome).toEqual({ status: "FAILED" });
    expect(received.map((r) => r.path)).toEqual(["/hook"]);
    const row = await db.webhookDelivery.findUniqueOrThrow({ where: { id: deliveryId } });
    expect(row).toMatchObject({ status: "FAILED", attempts: 1, lastStatusCode: 302 });
    expect(row.lastError).toMatch(/^HTTP 302: redirects are not followed \(to http:\/\/127\.0\.0\.1:\d+\/elsewhere\)$/);
    expect(await webhookEvents(task.id)).toEqual([{ deliveryId, attempt: 1, status: "FAILED", statusCode: 302, error: row.lastError }]);
  });

  it("sends nothing to a loopback, private or metadata URL when no admin allowed the host: each attempt fails outbound_url_refused", async () => {
    for (const url of [`${base}/hook`, base.replace("127.0.0.1", "localhost"), base.replace("127.0.0.1", "[::ffff:127.0.0.1]"), base.replace("127.0.0.1", "2130706433"), "http://169.254.169.254/latest/meta-data/", "http://10.0.0.1/hook"]) {
      const { task, deliveryId } = await finishedTask();
      await db.webhookDelivery.update({ where: { id: deliveryId }, data: { url } });
      const { outcome } = await deliverToTheEnd(deliveryId, { backoffMs: [10], outbound: { allowedHosts: [] } });

      expect(outcome).toEqual({ status: "FAILED" });
      const row = await db.webhookDelivery.findUniqueOrThrow({ where: { id: deliveryId } });
      expect(row).toMatchObject({ status: "FAILED", attempts: 2, lastStatusCode: null });
      expect(row.lastError).toMatch(/^outbound_url_refused: .* is a (loopback|private|linkLocal) address/);
      expect((await webhookEvents(task.id)).map((e) => (e as { status: string }).status)).toEqual(["RETRYING", "FAILED"]);
    }
    expect(received).toEqual([]);
  });

  it("bounds an attempt by timeoutMs: a receiver that never answers is a failure with an error", async () => {
    respond = () => undefined;
    const { deliveryId } = await finishedTask();
    const started = Date.now();
    const { outcome, scheduled } = await deliverToTheEnd(deliveryId, { backoffMs: [10], timeoutMs: 200 });

    expect(outcome).toEqual({ status: "FAILED" });
    expect(received).toHaveLength(2);
    expect(scheduled).toHaveLength(1);
    expect(Date.now() - started).toBeGreaterThanOrEqual(400);
    expect(Date.now() - started).toBeLessThan(5000);
    const row = await db.webhookDelivery.findUniqueOrThrow({ where: { id: deliveryId } });
    expect(row).toMatchObject({ status: "FAILED", attempts: 2, lastStatusCode: null, lastError: "timed out after 200 ms" });
    receiver.closeAllConnections();
  });

  it("names a connection error, and keeps the status code of an earlier attempt", async () => {
    const { deliveryId } = await finishedTask();
    await db.webhookDelivery.update({ where: { id: deliveryId }, data: { lastStatusCode: 500, attempts: 1, status: "RETRYING" } });
    const closed = http.createServer();
    await new Promise<void>((resolve) => closed.listen(0, "127.0.0.1", resolve));
    const deadUrl = `http://127.0.0.1:${String((closed.address() as AddressInfo).port)}/hook`;
    await new Promise((resolve) => closed.close(resolve));
    await db.webhookDelivery.update({ where: { id: deliveryId }, data: { url: deadUrl } });

    const { outcome } = await deliverToTheEnd(deliveryId, { backoffMs: [10] });
    expect(outcome).toEqual({ status: "FAILED" });
    const row = await db.webhookDelivery.findUniqueOrThrow({ where: { id: deliveryId } });
    expect(row).toMatchObject({ status: "FAILED", attempts: 2, lastStatusCode: 500 });
    expect(row.lastError).toMatch(/ECONNREFUSED/);
  });

  it("sends exactly one request when several processes deliver the same id at once", async () => {
    // The receiver holds its answer until the other five deliverers have settled (or a second request came):
    // all six overlap with the one request in flight, however slowly each gets going.
    const held: http.ServerResponse[] = [];
    let settledCount = 0;
    const answerHeld = () => {
      if (settledCount >= 5 || received.length > 1) for (const res of held.splice(0)) res.writeHead(204).end();
    };
    respond = (_req, res) => {
      held.push(res);
      answerHeld();
    };
    const { task, deliveryId } = await finishedTask();
    const deps: WebhookDeps = { db, logger, secretFor: sessionSecretFor(db), outbound: LOOPBACK_ALLOWED, schedule: async () => undefined };
    const outcomes = await Promise.all(
      Array.from({ length: 6 }, () =>
        deliverWebhook(deps, deliveryId).then((o) => {
          settledCount++;
          answerHeld();
          return o;
        }),
      ),
    );

    expect(received).toHaveLength(1);
    expect(outcomes.filter((o) => o.status === "DELIVERED")).toHaveLength(1);
    expect(outcomes.filter((o) => o.status === "SKIPPED")).toHaveLength(5);
    expect(await db.webhookDelivery.findUniqueOrThrow({ where: { id: deliveryId } })).toMatchObject({ status: "DELIVERED", attempts: 1, lastStatusCode: 204 });
    expect(await webhookEvents(task.id)).toHaveLength(1);
  });

  it("takes over a row left SENDING by a process that died once its lease ran out, not before", async () => {
    const { deliveryId } = await finishedTask();
    const deps: WebhookDeps = { db, logger, secretFor: sessionSecretFor(db), outbound: LOOPBACK_ALLOWED, schedule: async () => undefined };
    await db.webhookDelivery.update({ where: { id: deliveryId }, data: { status: "SENDING", nextAttemptAt: new Date(Date.now() + 60_000) } });
    expect(await deliverWebhook(deps, deliveryId)).toEqual({ status: "SKIPPED" });
    expect(received).toHaveLength(0);

    await db.webhookDelivery.update({ where: { id: deliveryId }, data: { nextAttemptAt: new Date(Date.now() - 1000) } });
    expect(await deliverWebhook(deps, deliveryId)).toEqual({ status: "DELIVERED" });
    expect(received).toHaveLength(1);
  });

  it("SKIPS a delivery whose session has no secret, sending nothing", async () => {
    const { task, deliveryId } = await finishedTask();
    await db.agentSession.update({ where: { id: task.agentSessionId! }, data: { callbackSecret: null } });
    const { outcome, scheduled } = await deliverToTheEnd(deliveryId);

    expect(outcome).toEqual({ status: "SKIPPED" });
    expect(received).toHaveLength(0);
    expect(scheduled).toHaveLength(0);
    const row = await db.webhookDelivery.findUniqueOrThrow({ where: { id: deliveryId } });
    expect(row).toMatchObject({ status: "SKIPPED", attempts: 0, lastStatusCode: null, nextAttemptAt: null });
    expect(row.lastError).toMatch(/no callback secret/);
    expect(await webhookEvents(task.id)).toEqual([{ deliveryId, attempt: 1, status: "SKIPPED", error: row.lastError }]);
  });

  it("counts a failing secret lookup as a failed attempt, and SKIPS an unknown id", async () => {
    const { deliveryId } = await finishedTask();
    const deps: WebhookDeps = { db, logger, secretFor: () => Promise.reject(new Error("vault sealed")), outbound: LOOPBACK_ALLOWED, schedule: async () => undefined, backoffMs: [] };
    expect(await deliverWebhook(deps, deliveryId)).toEqual({ status: "FAILED" });
    expect(received).toHaveLength(0);
    expect(await db.webhookDelivery.findUniqueOrThrow({ where: { id: deliveryId } })).toMatchObject({ status: "FAILED", attempts: 1, lastError: "secret lookup failed: vault sealed" });
    expect(await deliverWebhook(deps, "no-such-delivery")).toEqual({ status: "SKIPPED" });
  });
});

describe("from session registration to a verified delivery", () => {
  it("refuses a callbackUrl at a loopback, private, link-local or metadata address when the session is created (outbound_url_refused), and creates no session", async () => {
    const admin = await insertUser(db, { role: "ADMIN" });
    const before = await db.agentSession.count();
    for (const callbackUrl of [
      `${base}/hook`,
      "http://localhost:8080/hook",
      "http://[::1]/hook",
      "http://[::ffff:127.0.0.1]/hook",
      "http://2130706433/hook",
      "http://0177.0.0.1/hook",
      "http://169.254.169.254/latest/meta-data/",
      "https://10.1.2.3/hook",
      "https://192.168.0.10/hook",
      "http://100.64.0.1/hook",
      "http://[fd00::1]/hook",
      "http://[fe80::1]/hook",
      "http://0.0.0.0/hook",
      "http://224.0.0.1/hook",
    ]) {
      const err = await createAgentSession(db, userContext(admin), admin.id, { agentId: "ssrf", tools: ["*"], callbackUrl }).then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(err, callbackUrl).toMatchObject({ name: "GatewayError", code: "outbound_url_refused", status: 422, details: [{ path: "callbackUrl", reason: "forbidden_address" }] });
    }
    expect(await db.agentSession.count()).toBe(before);
  });

  it("a session created with a callbackUrl gets a secret once; its task's completion is signed with it", async () => {
    const admin = await insertUser(db, { role: "ADMIN" });
    const created = await createAgentSession(db, userContext(admin), admin.id, { agentId: "hooked", tools: ["*"], callbackUrl: `${base}/registered` }, LOOPBACK_ALLOWED);
    expect(created).toMatchObject({ callbackUrl: `${base}/registered`, callbackSecret: expect.stringMatching(/^whsec_/) as unknown });
    const plain = await createAgentSession(db, userContext(admin), admin.id, { agentId: "plain", tools: ["*"] });
    expect(plain).toMatchObject({ callbackUrl: null, callbackSecret: null });
    expect(await db.agentSession.findUniqueOrThrow({ where: { id: plain.id } })).toMatchObject({ callbackUrl: null, callbackSecret: null });

    const task = await db.task.create({
      data: { ownerId: admin.id, agentSessionId: created.id, toolName: "orders__export", arguments: {}, argumentsHash: randomUUID(), status: "CANCELED", finishedAt: new Date() },
    });
    const deliveryId = await db.$transaction((tx) => enqueueTaskWebhook(tx, task));
    const outcome = await deliverWebhook({ db, logger, secretFor: sessionSecretFor(db), outbound: LOOPBACK_ALLOWED, schedule: async () => undefined }, deliveryId!);
    expect(outcome).toEqual({ status: "DELIVERED" });
    expect(received.map((r) => r.path)).toEqual(["/registered"]);
    expect(verifyWebhookSignature(created.callbackSecret!, received[0]!.headers["x-portcullis-signature"] as string, received[0]!.body)).toBe(true);
    expect(JSON.parse(received[0]!.body)).toMatchObject({ task: { id: task.id, status: "CANCELED" }, sessionId: created.id });
  });
});

describe("enqueueing and listing", () => {
  it("enqueues a PENDING delivery due now, for the task's own callback URL over the session's", async () => {
    const { task, deliveryId } = await finishedTask();
    const pending = await db.webhookDelivery.findUniqueOrThrow({ where: { id: deliveryId } });
    expect(pending).toMatchObject({ status: "PENDING", attempts: 0, event: "task.completed", url: `${base}/hook`, taskId: task.id });
    expect(Math.abs(pending.nextAttemptAt!.getTime() - Date.now())).toBeLessThan(5000);

    const own = await db.$transaction((tx) => enqueueTaskWebhook(tx, { ...task, callbackUrl: `${base}/task-own` }));
    expect((await db.webhookDelivery.findUniqueOrThrow({ where: { id: own! } })).url).toBe(`${base}/task-own`);
  });

  it("enqueues nothing for a task without a session, or whose session has no callback", async () => {
    const { task } = await sessionTask({ secret: null });
    expect(await db.$transaction((tx) => enqueueTaskWebhook(tx, task))).toBeNull();
    expect(await db.$transaction((tx) => enqueueTaskWebhook(tx, { ...task, agentSessionId: null }))).toBeNull();
    const count = await db.webhookDelivery.count({ where: { taskId: task.id } });
    expect(count).toBe(0);
  });

  it("an approval's delivery is signed with the secret of the approval's session", async () => {
    const { session, task } = await finishedTask();
    const approval = await db.approval.create({
      data: {
        kind: "CALL",
        requesterId: user.id,
        agentSessionId: session.id,
        toolName: task.toolName,
        arguments: {},
        argumentsRedacted: {},
        argumentsHash: randomUUID(),
        expiresAt: new Date(Date.now() + 60_000),
      },
    });
    const id = await enqueueWebhook(db, { approvalId: approval.id, event: "approval.decided", url: `${base}/approvals`, payload: { ok: true } });
    const row = await db.webhookDelivery.findUniqueOrThrow({ where: { id } });
    expect(await sessionSecretFor(db)(row)).toBe(session.callbackSecret);
    expect(await sessionSecretFor(db)({ ...row, approvalId: null })).toBeNull();
  });

  it("listDeliveries gives a task's deliveries oldest first, dates as ISO strings", async () => {
    const { task, deliveryId } = await finishedTask();
    await deliverWebhook({ db, logger, secretFor: sessionSecretFor(db), outbound: LOOPBACK_ALLOWED, schedule: async () => undefined }, deliveryId);
    const second = await enqueueWebhook(db, { taskId: task.id, event: "task.completed", url: `${base}/again`, payload: {} });
    const list = await listDeliveries(db, { taskId: task.id });
    expect(list.map((d) => d.id)).toEqual([deliveryId, second]);
    expect(list[0]).toEqual({
      id: deliveryId,
      event: "task.completed",
      url: `${base}/hook`,
      status: "DELIVERED",
      attempts: 1,
      lastStatusCode: 200,
      lastError: null,
      nextAttemptAt: null,
      deliveredAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/) as unknown,
      createdAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/) as unknown,
    });
    expect(list[1]).toMatchObject({ status: "PENDING", attempts: 0, deliveredAt: null, nextAttemptAt: expect.any(String) as unknown });
    expect(await listDeliveries(db, { taskId: "unknown" })).toEqual([]);
  });
});

describe("on graphile-worker", () => {
  /** The delivery's row once it has reached a final state (the worker's jobs run in the background). */
  const settled = (id: string) =>
    vi.waitFor(
      async () => {
        const row = await db.webhookDelivery.findUniqueOrThrow({ where: { id } });
        if (!["DELIVERED", "FAILED", "SKIPPED"].includes(row.status)) throw new Error(`delivery ${id} still ${row.status}`);
        return row;
      },
      { timeout: 15_000, interval: 50 },
    );

  it("a job queued with the delivery runs it, retries by re-queueing, and a sweep re-queues lost and abandoned ones", async () => {
    respond = (req, res) => res.writeHead(req.url === "/flaky" && received.filter((r) => r.path === "/flaky").length < 2 ? 500 : 200).end();
    const deps: WebhookDeps = { db, logger, secretFor: sessionSecretFor(db), outbound: LOOPBACK_ALLOWED, schedule: (id, runAt) => scheduleWebhookJob(db, id, runAt), backoffMs: [50] };
    const runner = await run({
      connectionString: testDatabaseUrl(),
      concurrency: 2,
      noHandleSignals: true,
      pollInterval: 100,
      logger: new GraphileLogger(() => () => undefined),
      taskList: { [DELIVER_WEBHOOK_JOB]: webhookJob(deps) },
    });
    try {
      // As the engine does: the delivery and its first job commit with the task's final update.
      const { task } = await sessionTask({ path: "/flaky" });
      const flaky = await db.$transaction(async (tx) => {
        const id = (await enqueueTaskWebhook(tx, task))!;
        await scheduleWebhookJob(tx, id);
        return id;
      });
      expect(await settled(flaky)).toMatchObject({ status: "DELIVERED", attempts: 2, lastStatusCode: 200 });
      expect(received.filter((r) => r.path === "/flaky")).toHaveLength(2);

      // No job at all: one overdue, one left SENDING by a process that died mid-attempt.
      const lost = (await finishedTask({ path: "/lost" })).deliveryId;
      const abandoned = (await finishedTask({ path: "/abandoned" })).deliveryId;
      const fresh = (await finishedTask({ path: "/fresh" })).deliveryId;
      await db.webhookDelivery.update({ where: { id: lost }, data: { nextAttemptAt: new Date(Date.now() - 120_000) } });
      await db.webhookDelivery.update({ where: { id: abandoned }, data: { status: "SENDING", nextAttemptAt: new Date(Date.now() - 1000) } });
      const swept = await sweepWebhooks(db, (id, runAt) => scheduleWebhookJob(db, id, runAt));
      expect(swept).toBe(2);
      expect(await settled(lost)).toMatchObject({ status: "DELIVERED", attempts: 1 });
      expect(await settled(abandoned)).toMatchObject({ status: "DELIVERED", attempts: 1 });
      expect(received.map((r) => r.path).filter((p) => p !== "/flaky").sort()).toEqual(["/abandoned", "/lost"]);
      // A delivery due just now is left to its own job.
      expect((await db.webhookDelivery.findUniqueOrThrow({ where: { id: fresh } })).status).toBe("PENDING");
    } finally {
      await runner.stop();
    }
  });
});
