// Durable tasks over real MCP: the SDK client against the gateway over HTTP, the misbehaving fixture's slow
// tools as the upstream (it logs every start, finish and cancellation), graphile-worker on the run's
// PostgreSQL, and a second gateway in a process of its own that the crash tests kill with SIGKILL.
import type { ChildProcess } from "node:child_process";
import http from "node:http";
import type { AddressInfo } from "node:net";
import pg from "pg";
import { CallToolResultSchema, CreateTaskResultSchema, GetTaskResultSchema, ListTasksResultSchema } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RequestContext } from "../context";
import {
  agentToken,
  connectAgent,
  errorMeta,
  fixtureEvents,
  firstText,
  misbehavingServer,
  setUpGatewayTest,
  spawnGatewayProcess,
  waitUntil,
  type Agent,
  type GatewayTestEnv,
  type TestGateway,
} from "../test/gateway-harness";
import { createTestDb, testDatabaseUrl } from "../test/test-db";
import { createAgentSession } from "../sessions/agent-sessions";
import { userContext } from "../test/contexts";
import { verifyWebhookSignature } from "./webhooks";
import { enqueueTask } from "./task-event";
import { WORKER_LOCK_CLASS } from "./task-scope";

type Accepted = { task_id: string; status: string };
type Status = { task_id: string; status: string; progress: number | null; total: number | null; retry_after_seconds: number | null; error_code: string | null; attempts: number };

describe("durable tasks", () => {
  const db = createTestDb();
  let env: GatewayTestEnv;
  let a: TestGateway;
  let admin: RequestContext;
  let agent: Agent;
  let dir = "";
  let seq = 0;
  const tag = (label: string) => `${label}-${String(++seq)}`;

  const call = (ag: Agent, name: string, args: Record<string, unknown>, meta?: Record<string, unknown>) =>
    ag.client.callTool({ name, arguments: args, ...(meta && { _meta: meta }) });
  const status = async (ag: Agent, id: string) => (await call(ag, "get_task_status", { task_id: id })).structuredContent as Status;
  const settled = (ag: Agent, id: string, timeoutMs = 20_000) =>
    waitUntil(`task ${id} to finish`, async () => {
      const s = await status(ag, id);
      return s.retry_after_seconds === null ? s : undefined;
    }, timeoutMs);
  const starts = (t: string) => fixtureEvents(dir).filter((e) => e.event === "slow.start" && (e.args as { tag?: string }).tag === t).length;

  beforeAll(async () => {
    env = await setUpGatewayTest(db, "tasks", { gateways: 2, tasks: { thresholdMs: 300, sweepIntervalMs: 200, concurrency: 2, dedupeWindowMs: 5000, webhookBackoffMs: [100, 200] }, env: { OUTBOUND_ALLOWED_HOSTS: "127.0.0.1" } });
    a = env.gateways[0]!;
    ({ admin, dir } = env);
    await a.gateway.registry.register(admin, misbehavingServer(dir, { slug: "slow", timeoutMs: 60_000 }));
    agent = await env.agent(0);
  });

  afterAll(async () => {
    await env?.close();
  });

  it("lists the task tools next to the upstream's tools, and declares MCP tasks support", async () => {
    const { tools } = await agent.client.listTools();
    const names = tools.map((t) => t.name);
    expect(names).toEqual(expect.arrayContaining(["get_task_status", "get_task_result", "cancel_task", "list_my_tasks", "slow__slow_write"]));
    expect(tools.find((t) => t.name === "get_task_status")?.description).toMatch(/every 10 seconds/);
    expect(tools.find((t) => t.name === "slow__slow_write")?.execution?.taskSupport).toBe("optional");
    expect(agent.client.getServerCapabilities()?.tasks?.requests?.tools?.call).toBeDefined();
  });

  it("answers a quick call directly and makes no task of it", async () => {
    const t = tag("quick");
    const result = await call(agent, "slow__slow_write", { ms: 20, tag: t });
    expect(firstText(result)).toBe(`slow_write ${t} done`);
    expect(await db.task.count({ where: { toolName: "slow__slow_write" } })).toBe(0);
  });

  it("answers a call still running after the threshold with a task id, records progress, and keeps the result", async () => {
    const t = tag("threshold");
    const started = Date.now();
    const result = await call(agent, "slow__slow_write", { ms: 1500, steps: 5, tag: t });
    expect(Date.now() - started).toBeLessThan(1400);
    const accepted = result.structuredContent as Accepted;
    expect(accepted.status).toBe("RUNNING");
    expect(firstText(result)).toMatch(/get_task_status/);
    const mid = await status(agent, accepted.task_id);
    expect(mid.retry_after_seconds).toBe(10);
    const done = await settled(agent, accepted.task_id);
    expect(done.status).toBe("SUCCEEDED");
    // The SDK client runs a notification handler a microtask after the message, and drops the progress handler
    // when the response comes in: the last step may be lost on the way (the upstream sent all five).
    expect(done.progress).toBeGreaterThanOrEqual(4);
    expect(done.total).toBe(5);
    const final = await call(agent, "get_task_result", { task_id: accepted.task_id });
    expect(firstText(final)).toBe(`slow_write ${t} done`);
    const row = await db.task.findUniqueOrThrow({ where: { id: accepted.task_id }, include: { events: true } });
    expect(row.origin).toBe("threshold");
    expect(row.events.map((e) => e.type)).toEqual(expect.arrayContaining(["submitted", "started", "progress", "succeeded"]));
    expect(row.expiresAt!.getTime()).toBeGreaterThan(Date.now() + 6 * 86_400_000);
    // The submitting call's audit event names the task; the finish has one of its own.
    const audit = await db.auditEvent.findMany({ where: { requestId: row.requestId! } });
    expect(audit.map((e) => e.action).sort()).toEqual(["task.started", "task.succeeded", "tool.called"]);
    expect(audit.find((e) => e.action === "tool.called")?.details).toMatchObject({ taskId: accepted.task_id });
    expect(starts(t)).toBe(1);
  });

  it("queues every call of a tool an admin marked async and runs it in a worker", async () => {
    await a.gateway.registry.updateTool(admin, "slow__slow_read", { async: true });
    const t = tag("async");
    const result = await call(agent, "slow__slow_read", { ms: 100, tag: t });
    const accepted = result.structuredContent as Accepted;
    expect(accepted.status).toBe("PENDING");
    const done = await settled(agent, accepted.task_id);
    expect(done.status).toBe("SUCCEEDED");
    expect(firstText(await call(agent, "get_task_result", { task_id: accepted.task_id }))).toBe(`slow_read ${t} done`);
    expect((await db.task.findUniqueOrThrow({ where: { id: accepted.task_id } })).origin).toBe("async");
    await a.gateway.registry.updateTool(admin, "slow__slow_read", { async: false });
  });

  it("cancel_task stops a running task and tells the upstream to cancel; the task stays CANCELED", async () => {
    const t = tag("cancel");
    const accepted = (await call(agent, "slow__slow_write", { ms: 20_000, steps: 20, tag: t })).structuredContent as Accepted;
    const cancel = await call(agent, "cancel_task", { task_id: accepted.task_id });
    expect(cancel.structuredContent).toEqual({ task_id: accepted.task_id, status: "CANCELED" });
    await waitUntil("the upstream to hear the cancellation", () =>
      fixtureEvents(dir).some((e) => e.event === "cancelled" && (e.args as { tag?: string }).tag === t),
    );
    // The aborted call settles in the gateway after the cancel: once the gateway has let go of it (written its
    // outcome, or left the canceled row alone), the row must still say CANCELED.
    await waitUntil("the gateway to let go of the canceled call", () => !a.gateway.taskEngine.following(accepted.task_id));
    const row = await db.task.findUniqueOrThrow({ where: { id: accepted.task_id } });
    expect(row.status).toBe("CANCELED");
    expect(row.errorCode).toBe("canceled");
    const again = await call(agent, "cancel_task", { task_id: accepted.task_id });
    expect(errorMeta(again).code).toBe("task_finished");
  });

  it("the same idempotency key in the same session returns the same task and never runs it twice", async () => {
    const t = tag("idem");
    const meta = { idempotencyKey: `key-${t}` };
    const first = await call(agent, "slow__slow_write", { ms: 1200, tag: t }, meta);
    const firstId = (first.structuredContent as Accepted).task_id;
    const whileRunning = await call(agent, "slow__slow_write", { ms: 1200, tag: t }, meta);
    expect((whileRunning.structuredContent as Accepted).task_id).toBe(firstId);
    expect(firstText(whileRunning)).toMatch(/not run again/);
    await settled(agent, firstId);
    const afterwards = await call(agent, "slow__slow_write", { ms: 1200, tag: t }, meta);
    expect(firstText(afterwards)).toBe(`slow_write ${t} done`);
    expect((afterwards._meta?.["portcullis/task"] as { taskId: string }).taskId).toBe(firstId);
    expect(starts(t)).toBe(1);

    // A quick call with a key is answered directly, and its replay too, without a second run.
    const q = tag("idem-quick");
    const quick = await call(agent, "slow__slow_write", { ms: 10, tag: q }, { idempotencyKey: q });
    expect(firstText(quick)).toBe(`slow_write ${q} done`);
    expect(firstText(await call(agent, "slow__slow_write", { ms: 10, tag: q }, { idempotencyKey: q }))).toBe(`slow_write ${q} done`);
    expect(starts(q)).toBe(1);

    // Another session's key space is its own.
    const other = await connectAgent(a.mcpUrl, await agentToken(db, (await db.user.findFirstOrThrow({ where: { role: "USER" } })), {}));
    env.agents.push(other);
    const theirs = await call(other, "slow__slow_write", { ms: 10, tag: q }, { idempotencyKey: q });
    expect(firstText(theirs)).toBe(`slow_write ${q} done`);
    expect(starts(q)).toBe(2);
  });

  it("refuses a malformed idempotency key", async () => {
    await expect(call(agent, "slow__slow_write", { ms: 10 }, { idempotencyKey: 42 })).rejects.toThrow(/idempotencyKey/);
  });

  it("an identical call retried within the dedupe window gets the running task instead of a second run", async () => {
    const t = tag("dedupe");
    const first = (await call(agent, "slow__slow_write", { ms: 1500, tag: t })).structuredContent as Accepted;
    const retry = (await call(agent, "slow__slow_write", { ms: 1500, tag: t })).structuredContent as Accepted;
    expect(retry.task_id).toBe(first.task_id);
    await settled(agent, first.task_id);
    expect(starts(t)).toBe(1);
  });

  it("a task is visible only to its own session", async () => {
    const t = tag("private");
    const accepted = (await call(agent, "slow__slow_write", { ms: 800, tag: t })).structuredContent as Accepted;
    const other = await connectAgent(a.mcpUrl, await agentToken(db, (await db.user.findFirstOrThrow({ where: { role: "USER" } }))));
    env.agents.push(other);
    for (const tool of ["get_task_status", "get_task_result", "cancel_task"]) {
      expect(errorMeta(await call(other, tool, { task_id: accepted.task_id })).code).toBe("task_not_found");
    }
    expect(errorMeta(await call(agent, "get_task_status", { task_id: "nope" })).code).toBe("task_not_found");
    const mine = (await call(agent, "list_my_tasks", { status: ["RUNNING", "SUCCEEDED"] })).structuredContent as { tasks: Status[] };
    expect(mine.tasks.map((x) => x.task_id)).toContain(accepted.task_id);
    const theirs = (await call(other, "list_my_tasks", {})).structuredContent as { tasks: Status[] };
    expect(theirs.tasks).toEqual([]);
    await settled(agent, accepted.task_id);
  });

  it("serves a large result in pages within the output bound", async () => {
    const t = tag("big");
    const accepted = (await call(agent, "slow__slow_write", { ms: 600, tag: t, kb: 300 })).structuredContent as Accepted;
    await settled(agent, accepted.task_id);
    const row = await db.task.findUniqueOrThrow({ where: { id: accepted.task_id } });
    expect(row.resultBytes).toBeGreaterThan(300 * 1024);
    expect(row.resultTruncated).toBe(false);
    let text = "";
    for (let page = 1; ; page++) {
      const res = await call(agent, "get_task_result", { task_id: accepted.task_id, page });
      expect(Buffer.byteLength(JSON.stringify(res))).toBeLessThanOrEqual(100 * 1024);
      const pageMeta = res._meta?.["portcullis/page"] as { page: number; pages: number };
      text += firstText(res);
      if (page === pageMeta.pages) break;
      expect((res.content as { type: string }[])[1]).toMatchObject({ type: "text", text: expect.stringMatching(/"page":\d+/) as unknown });
    }
    expect(text).toBe("y".repeat(300 * 1024));
    expect(errorMeta(await call(agent, "get_task_result", { task_id: accepted.task_id, page: 99 })).code).toBe("invalid_arguments");
  });

  it("deletes finished tasks (with their events) once their retention has passed, and keeps the rest; and claims left over by ended tasks", async () => {
    const done = (await call(agent, "slow__slow_write", { ms: 400, tag: tag("retention") })).structuredContent as Accepted;
    await settled(agent, done.task_id);
    const kept = (await call(agent, "slow__slow_write", { ms: 400, tag: tag("retention-kept") })).structuredContent as Accepted;
    await settled(agent, kept.task_id);
    await db.task.update({ where: { id: done.task_id }, data: { expiresAt: new Date(Date.now() - 1000) } });
    // Claims (call_claims): one left over by a task that has ended goes, one of a call in flight stays. Both are a
    // live process's: a dead runner's would be the sweep's to delete (every 200 ms here), whatever cleanup does.
    const keptRow = await db.task.findUniqueOrThrow({ where: { id: kept.task_id } });
    const claim = (hash: string, taskId: string | null) => ({
      agentSessionId: keptRow.agentSessionId!, toolName: keptRow.toolName, argumentsHash: hash, id: `claim-${hash}`, taskId, runnerId: a.gateway.taskEngine.runnerId, ownerId: keptRow.ownerId,
      arguments: "{}", retryable: false, maxAttempts: 1, requestId: "r", endpoint: "mcp", createdAt: new Date(),
    });
    await db.callClaim.createMany({ data: [claim("left-over", kept.task_id), claim("in-flight", null)] });
    expect(await a.gateway.taskEngine.cleanup()).toBe(1);
    expect((await db.callClaim.findMany({ where: { agentSessionId: keptRow.agentSessionId! } })).map((c) => c.argumentsHash)).toEqual(["in-flight"]);
    await db.callClaim.deleteMany({ where: { argumentsHash: "in-flight" } });
    expect(await db.task.findUnique({ where: { id: done.task_id } })).toBeNull();
    expect(await db.taskEvent.count({ where: { taskId: done.task_id } })).toBe(0);
    expect(await db.task.findUnique({ where: { id: kept.task_id } })).not.toBeNull();
  });

  it("POSTs a signed completion webhook to the session's callback URL, retrying until it is taken", async () => {
    const received: { headers: http.IncomingHttpHeaders; body: string }[] = [];
    const receiver = http.createServer((req, res) => {
      let body = "";
      req.on("data", (c: Buffer) => (body += c.toString()));
      req.on("end", () => {
        received.push({ headers: req.headers, body });
        res.writeHead(received.length === 1 ? 500 : 200).end();
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve));
    try {
      const { port } = receiver.address() as AddressInfo;
      const user = await db.user.findFirstOrThrow({ where: { role: "USER" } });
      const session = await createAgentSession(db, userContext(user), user.id, { agentId: "hooked", tools: ["*"], paths: [], callbackUrl: `http://127.0.0.1:${String(port)}/hook` }, a.gateway.config.outbound);
      expect(session.callbackSecret).toMatch(/^whsec_/);
      const hooked = await connectAgent(a.mcpUrl, session.token);
      env.agents.push(hooked);
      const accepted = (await call(hooked, "slow__slow_write", { ms: 500, tag: tag("hook") })).structuredContent as Accepted;
      await settled(hooked, accepted.task_id);
      await waitUntil("the second delivery attempt", () => received.length >= 2);
      for (const r of received) {
        expect(verifyWebhookSignature(session.callbackSecret!, String(r.headers["x-portcullis-signature"]), r.body)).toBe(true);
        expect(r.headers["x-portcullis-event"]).toBe("task.completed");
      }
      expect(JSON.parse(received[1]!.body)).toMatchObject({ event: "task.completed", task: { id: accepted.task_id, status: "SUCCEEDED", tool: "slow__slow_write" } });
      const delivery = await waitUntil("the delivery to be logged as delivered", async () => {
        const d = await db.webhookDelivery.findFirst({ where: { taskId: accepted.task_id } });
        return d?.status === "DELIVERED" ? d : undefined;
      });
      expect(delivery.attempts).toBe(2);
      const events = await db.taskEvent.findMany({ where: { taskId: accepted.task_id, type: "webhook" }, orderBy: { id: "asc" } });
      expect(events.map((e) => (e.data as { status: string }).status)).toEqual(["RETRYING", "DELIVERED"]);
    } finally {
      await new Promise((resolve) => receiver.close(resolve));
    }
  });

  it("supports the MCP tasks utility: tools/call with `task` answers a task, tasks/get and tasks/result follow it", async () => {
    const t = tag("native");
    const created = await agent.client.request(
      { method: "tools/call", params: { name: "slow__slow_write", arguments: { ms: 400, tag: t }, task: { ttl: 60_000 } } },
      CreateTaskResultSchema,
    );
    expect(created.task.status).toBe("working");
    expect(created.task.pollInterval).toBe(10_000);
    await waitUntil("the MCP task to complete", async () => {
      const got = await agent.client.request({ method: "tasks/get", params: { taskId: created.task.taskId } }, GetTaskResultSchema);
      return got.status === "completed";
    });
    const result = await agent.client.request({ method: "tasks/result", params: { taskId: created.task.taskId } }, CallToolResultSchema);
    expect(firstText(result)).toBe(`slow_write ${t} done`);
    const list = await agent.client.request({ method: "tasks/list", params: {} }, ListTasksResultSchema);
    expect(list.tasks.map((x) => x.taskId)).toContain(created.task.taskId);
    expect((await db.task.findUniqueOrThrow({ where: { id: created.task.taskId } })).origin).toBe("mcp_task");
  });

  it("offers the task tools on the single-server endpoint too", async () => {
    const one = await connectAgent(new URL("/mcp/s/slow", a.mcpUrl), agent.token);
    env.agents.push(one);
    expect((await one.client.listTools()).tools.map((x) => x.name)).toEqual(expect.arrayContaining(["slow_write", "get_task_status"]));
    const t = tag("transparent");
    const accepted = (await call(one, "slow_write", { ms: 900, tag: t })).structuredContent as Accepted;
    expect(accepted.status).toBe("RUNNING");
    expect((await settled(one, accepted.task_id)).status).toBe("SUCCEEDED");
    expect(firstText(await call(one, "get_task_result", { task_id: accepted.task_id }))).toBe(`slow_write ${t} done`);

    // The MCP tasks utility is the gateway's there too, whatever the upstream offers.
    expect(one.client.getServerCapabilities()?.tasks?.requests?.tools?.call).toBeDefined();
    const n = tag("transparent-native");
    const created = await one.client.request({ method: "tools/call", params: { name: "slow_write", arguments: { ms: 300, tag: n }, task: { ttl: 60_000 } } }, CreateTaskResultSchema);
    await waitUntil("the task to complete", async () => (await one.client.request({ method: "tasks/get", params: { taskId: created.task.taskId } }, GetTaskResultSchema)).status === "completed");
    expect(firstText(await one.client.request({ method: "tasks/result", params: { taskId: created.task.taskId } }, CallToolResultSchema))).toBe(`slow_write ${n} done`);
    await expect(one.client.request({ method: "tasks/get", params: { taskId: "not-a-task" } }, GetTaskResultSchema)).rejects.toThrow(/not found/i);
  });

  it("two gateway processes share the queue", async () => {
    await a.gateway.registry.updateTool(admin, "slow__slow_read", { async: true });
    try {
      const ids: string[] = [];
      for (let i = 0; i < 8; i++) ids.push(((await call(agent, "slow__slow_read", { ms: 400, tag: tag("shared") })).structuredContent as Accepted).task_id);
      for (const id of ids) expect((await settled(agent, id)).status).toBe("SUCCEEDED");
      const started = await db.taskEvent.findMany({ where: { taskId: { in: ids }, type: "started" } });
      const runners = new Set(started.map((e) => (e.data as { runner: string }).runner));
      expect(started).toHaveLength(8);
      expect(runners).toEqual(new Set(env.gateways.map((g) => g.gateway.taskEngine.runnerId)));
    } finally {
      await a.gateway.registry.updateTool(admin, "slow__slow_read", { async: false });
    }
  });

  it("a task whose job a worker locked before its process died runs on a live process; a live worker's job is left to it", async () => {
    // Every worker of each process holds its lock on that process's liveness connection.
    for (const g of env.gateways) {
      const [held] = await db.$queryRaw<{ n: bigint }[]>`SELECT count(*) AS n FROM pg_locks l JOIN pg_stat_activity p ON p.pid = l.pid
        WHERE l.locktype = 'advisory' AND l.classid = ${WORKER_LOCK_CLASS}::oid AND l.granted AND p.application_name = ${`portcullis ${g.gateway.taskEngine.runnerId}`}`;
      expect(Number(held!.n)).toBe(2);
    }
    await a.gateway.registry.updateTool(admin, "slow__slow_read", { async: true });
    const standIn = new pg.Client({ connectionString: testDatabaseUrl() });
    try {
      const model = await db.task.findUniqueOrThrow({
        where: { id: ((await call(agent, "slow__slow_read", { ms: 0, tag: tag("model") })).structuredContent as Accepted).task_id },
      });
      // The state a SIGKILL leaves between graphile-worker's lock of a job and the claim of its task: the task
      // PENDING, its job locked by a worker no process runs any more (or, for `alive`, by one whose process holds
      // its lock: the stand-in connection).
      const queue = async (t: string, worker: string) =>
        db.$transaction(async (tx) => {
          const task = await tx.task.create({
            data: {
              ownerId: model.ownerId, agentSessionId: model.agentSessionId, toolId: model.toolId, toolName: model.toolName, origin: model.origin,
              retryable: model.retryable, maxAttempts: model.maxAttempts, endpoint: model.endpoint, arguments: { ms: 0, tag: t }, argumentsHash: `hash-${t}`,
            },
          });
          await enqueueTask(tx, task.id);
          expect(await tx.$executeRaw`UPDATE graphile_worker._private_jobs SET locked_by = ${worker}, locked_at = now() WHERE payload->>'taskId' = ${task.id}`).toBe(1);
          return task.id;
        });
      await standIn.connect();
      await standIn.query("SELECT pg_advisory_lock($1::int, hashtext($2))", [WORKER_LOCK_CLASS, "worker-alive"]);
      const [gone, alive] = [tag("worker-gone"), tag("worker-alive")];
      const goneId = await queue(gone, "worker-gone");
      const aliveId = await queue(alive, "worker-alive");

      expect(await settled(agent, goneId)).toMatchObject({ status: "SUCCEEDED", attempts: 1 });
      expect(starts(gone)).toBe(1);
      await a.gateway.taskEngine.sweep();
      expect(await db.task.findUniqueOrThrow({ where: { id: aliveId } })).toMatchObject({ status: "PENDING", attempts: 0 });
      const [job] = await db.$queryRaw<{ locked_by: string | null }[]>`SELECT locked_by FROM graphile_worker._private_jobs WHERE payload->>'taskId' = ${aliveId}`;
      expect(job?.locked_by).toBe("worker-alive");
      expect(starts(alive)).toBe(0);

      await standIn.end(); // its process dies
      expect(await settled(agent, aliveId)).toMatchObject({ status: "SUCCEEDED", attempts: 1 });
      expect(starts(alive)).toBe(1);
    } finally {
      await standIn.end().catch(() => undefined);
      await a.gateway.registry.updateTool(admin, "slow__slow_read", { async: false });
    }
  });

  describe("when the gateway process running a task is killed", () => {
    let child: ChildProcess | undefined;
    afterAll(() => {
      if (child && child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
    });

    it("re-runs a read-only task elsewhere and fails a non-idempotent one as `interrupted`, never running it twice", async () => {
      let url: string;
      ({ child, url } = await spawnGatewayProcess({ TASK_THRESHOLD_MS: "200", TASK_SWEEP_INTERVAL_MS: "200" }));
      const onChild = await connectAgent(new URL("/mcp", url), agent.token);
      const write = tag("crash-write");
      const read = tag("crash-read");
      const w = (await call(onChild, "slow__slow_write", { ms: 15_000, steps: 15, tag: write })).structuredContent as Accepted;
      const r = (await call(onChild, "slow__slow_read", { ms: 3000, steps: 3, tag: read })).structuredContent as Accepted;
      expect([w.status, r.status]).toEqual(["RUNNING", "RUNNING"]);
      await waitUntil("both to have started upstream", () => starts(write) === 1 && starts(read) === 1);
      const exited = new Promise((resolve) => child!.once("exit", resolve));
      child.kill("SIGKILL");
      await exited;
      await onChild.close();

      const failed = await settled(agent, w.task_id);
      expect(failed.status).toBe("FAILED");
      expect(failed.error_code).toBe("interrupted");
      const rerun = await settled(agent, r.task_id, 30_000);
      expect(rerun.status).toBe("SUCCEEDED");
      expect(rerun.attempts).toBe(2);
      expect(firstText(await call(agent, "get_task_result", { task_id: r.task_id }))).toBe(`slow_read ${read} done`);
      expect(starts(write)).toBe(1);
      expect(starts(read)).toBe(2);
      const events = await db.taskEvent.findMany({ where: { taskId: { in: [w.task_id, r.task_id] }, type: "recovered" } });
      expect(events.map((e) => (e.data as { action: string }).action).sort()).toEqual(["failed", "requeued"]);
    });
  });
});
