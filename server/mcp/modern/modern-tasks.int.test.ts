// The tasks extension (io.modelcontextprotocol/tasks) of 2026-07-28 on every endpoint, over the durable task rows:
// a call the gateway turns into a task answered with its handle (the row committed first), tasks/get, tasks/update
// and tasks/cancel, a HIGH-tier call waiting for a person and finishing after an approver decides on another
// gateway process, -32021 for clients that did not declare the extension, and tasks that only their own agent
// session can see. A v1 client with 2025-11-25 tasks and a v2 client work on the same endpoints at the same time.
import { Client as ClientV2, StreamableHTTPClientTransport as TransportV2 } from "@modelcontextprotocol/client";
import { CallToolResultSchema, CreateTaskResultSchema, GetTaskResultSchema } from "@modelcontextprotocol/sdk/types.js";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { fuzzParams, fuzzTimeoutMs, hostileString } from "../../test/fuzz";
import { agentToken, connectAgent, fixtureEvents, firstText, misbehavingServer, setUpGatewayTest, userWithToken, waitUntil, type GatewayTestEnv, type TestGateway } from "../../test/gateway-harness";
import { insertUser, userContext } from "../../test/contexts";
import { createTestDb } from "../../test/test-db";
import { modernRequest } from "../../test/modern-request";

const TASKS = "io.modelcontextprotocol/tasks";
const DECLARED = { extensions: { [TASKS]: {} } };
type Caps = Record<string, unknown>;

describe("the tasks extension on every endpoint", () => {
  const db = createTestDb();
  let env: GatewayTestEnv;
  let gws: TestGateway[] = [];
  let token = "";
  let seq = 0;
  const tag = (label: string) => `${label}-${String(++seq)}`;

  /** A 2026 request with the routing headers a conforming client sends (Mcp-Name: name, uri or taskId). */
  const post = (path: string, method: string, params: Record<string, unknown>, opts: { caps?: Caps; gw?: number; token?: string; headers?: Record<string, string> } = {}) =>
    modernRequest(new URL(path, gws[opts.gw ?? 0]!.http.url), method, params, { token: opts.token ?? token, capabilities: opts.caps ?? DECLARED, ...(opts.headers && { headers: opts.headers }) });
  const getTask = async (path: string, taskId: string, opts: { caps?: Caps; gw?: number } = {}) => (await post(path, "tasks/get", { taskId }, opts)).answer;
  const settled = (path: string, taskId: string) =>
    waitUntil(`task ${taskId} to end`, async () => {
      const r = (await getTask(path, taskId)).result;
      return r && ["completed", "failed", "cancelled"].includes(r.status as string) ? r : undefined;
    }, 20_000);
  const starts = (t: string) => fixtureEvents(env.dir).filter((e) => e.event === "slow.start" && (e.args as { tag?: string }).tag === t).length;

  beforeAll(async () => {
    env = await setUpGatewayTest(db, "tasks26", {
      gateways: 2,
      tasks: { thresholdMs: 60_000, sweepIntervalMs: 200, concurrency: 2, dedupeWindowMs: 0 },
      approvals: { ttlMs: 60_000, sweepIntervalMs: 200 },
    });
    gws = env.gateways;
    token = env.token;
    const { server } = await gws[0]!.gateway.registry.register(env.admin, misbehavingServer(env.dir, { slug: "ops", timeoutMs: 60_000 }));
    if (server.status !== "HEALTHY") throw new Error(server.lastError ?? "ops did not start");
    // slow_read and hang always run as tasks (async tools); slow_write is held for a person (HIGH tier).
    await gws[0]!.gateway.registry.updateTool(env.admin, "ops__slow_read", { async: true, riskTier: "LOW" });
    await gws[0]!.gateway.registry.updateTool(env.admin, "ops__hang", { async: true, riskTier: "LOW" });
    await gws[0]!.gateway.registry.updateTool(env.admin, "ops__slow_write", { riskTier: "HIGH" });
    await gws[0]!.gateway.virtualServers.create(env.admin, { name: "desk-tasks", members: [{ kind: "tool", server: "ops", name: "slow_read", exposedName: "read" }] });
  }, 120_000);
  afterAll(() => env?.close());

  it.each(["/mcp", "/mcp/s/ops", "/mcp/code", "/mcp/v/desk-tasks"])("POST %s server/discover – advertises the extension, not 2025's tasks capability", async (path) => {
    const { status, answer } = await post(path, "server/discover", {}, { caps: {} });
    expect(status).toBe(200);
    const capabilities = answer.result?.capabilities as Record<string, unknown>;
    expect(capabilities.extensions).toEqual({ [TASKS]: {} });
    expect(capabilities.tasks).toBeUndefined();
  });

  it.each([
    ["/mcp", "ops__slow_read"],
    ["/mcp/s/ops", "slow_read"],
    ["/mcp/v/desk-tasks", "read"],
  ])("%s – a task end to end for a 2026 client (create → get on the other process → result) beside a v1 client's 2025 task and a v2 client", async (path, name) => {
    const url = new URL(path, gws[0]!.http.url);
    const v1 = await connectAgent(url, token);
    env.agents.push(v1);
    const v2 = new ClientV2({ name: "v2-agent", version: "2.4.0" }, { versionNegotiation: { mode: "auto" } });
    await v2.connect(new TransportV2(url, { requestInit: { headers: { authorization: `Bearer ${token}` } } }));
    try {
      const [t26, t25] = [tag("modern"), tag("legacy")];
      const [created, legacy, v2Tools] = await Promise.all([
        post(path, "tools/call", { name, arguments: { ms: 200, tag: t26 } }),
        v1.client.request({ method: "tools/call", params: { name, arguments: { ms: 200, tag: t25 }, task: { ttl: 60_000 } } }, CreateTaskResultSchema),
        v2.listTools(),
      ]);
      expect(v2Tools.tools.map((t) => t.name)).toContain(name);
      expect(v2.getServerCapabilities()?.extensions).toEqual({ [TASKS]: {} });
      // A flat CreateTaskResult: no `task` wrapper, no content, result or requestState, v2 field names.
      const r = created.answer.result!;
      expect(created.status).toBe(200);
      expect(r).toMatchObject({ resultType: "task", status: "working", taskId: expect.any(String) as unknown, createdAt: expect.any(String) as unknown, lastUpdatedAt: expect.any(String) as unknown, pollIntervalMs: expect.any(Number) as unknown });
      expect(r).toHaveProperty("ttlMs");
      for (const absent of ["task", "content", "result", "error", "inputRequests", "requestState", "ttl", "pollInterval"]) expect(r).not.toHaveProperty(absent);
      const taskId = r.taskId as string;
      // Durable before the handle left: the other process finds it at once.
      expect((await getTask(path, taskId, { gw: 1 })).result).toMatchObject({ resultType: "complete", taskId });
      const done = await settled(path, taskId);
      expect(done).toMatchObject({ status: "completed", result: { content: [{ type: "text", text: `slow_read ${t26} done` }] } });
      expect((done.result as { _meta?: Record<string, unknown> })._meta?.["io.modelcontextprotocol/related-task"]).toBeUndefined();
      // The v1 client's 2025 task, on the same endpoint at the same time.
      await waitUntil("the 2025 task to complete", async () => (await v1.client.request({ method: "tasks/get", params: { taskId: legacy.task.taskId } }, GetTaskResultSchema)).status === "completed");
      expect(firstText(await v1.client.request({ method: "tasks/result", params: { taskId: legacy.task.taskId } }, CallToolResultSchema))).toBe(`slow_read ${t25} done`);
      // One store: the 2025 task is the same session's, so its 2026 tasks/get shows it too.
      expect((await getTask(path, legacy.task.taskId)).result).toMatchObject({ status: "completed", result: { content: [{ type: "text", text: `slow_read ${t25} done` }] } });
      // Audited: the call, its task's start and end, all under the task's id.
      await waitUntil("the task's end to be audited", async () => (await db.auditEvent.count({ where: { taskId, action: "task.succeeded" } })) === 1);
      const actions = (await db.auditEvent.findMany({ where: { taskId }, orderBy: { id: "asc" } })).map((e) => [e.action, e.toolName]);
      expect(actions).toEqual(expect.arrayContaining([["tool.called", "ops__slow_read"], ["task.started", "ops__slow_read"], ["task.succeeded", "ops__slow_read"]]));
    } finally {
      await v2.close();
    }
  });

  it("/mcp/code – serves the session's tasks (made on /mcp) beside a v1 client's get_task_status and a v2 client; its own tools never become tasks", async () => {
    const url = new URL("/mcp/code", gws[0]!.http.url);
    const v1 = await connectAgent(url, token);
    env.agents.push(v1);
    const v2 = new ClientV2({ name: "v2-agent", version: "2.4.0" }, { versionNegotiation: { mode: "auto" } });
    await v2.connect(new TransportV2(url, { requestInit: { headers: { authorization: `Bearer ${token}` } } }));
    const created = (await post("/mcp", "tools/call", { name: "ops__slow_read", arguments: { ms: 10, tag: tag("code") } })).answer.result!;
    const [modern, legacy, listed] = await Promise.all([getTask("/mcp/code", created.taskId as string), v1.client.callTool({ name: "get_task_status", arguments: { task_id: created.taskId } }), v2.listTools()]);
    await v2.close();
    expect(modern.result).toMatchObject({ taskId: created.taskId });
    expect(legacy.structuredContent).toMatchObject({ task_id: created.taskId, tool: "ops__slow_read" });
    expect(listed.tools.map((t) => t.name)).toContain("execute_code");
    const code = await post("/mcp/code", "tools/call", { name: "execute_code", arguments: { code: "return 1 + 1" } });
    expect(code.answer.result?.resultType).toBe("complete");
    await settled("/mcp/code", created.taskId as string);
  });

  it.each(["/mcp", "/mcp/s/ops"])("%s tasks/cancel – an empty ack; the running call is stopped upstream; again on the ended task, the same ack", async (path) => {
    const name = path === "/mcp" ? "ops__hang" : "hang";
    const taskId = (await post(path, "tools/call", { name, arguments: {} })).answer.result!.taskId as string;
    await waitUntil("the task to run", async () => ((await db.task.findUnique({ where: { id: taskId } }))?.status === "RUNNING" ? true : undefined));
    for (let i = 0; i < 2; i++) {
      const ack = await post(path, "tasks/cancel", { taskId });
      expect(ack.status).toBe(200);
      expect(ack.answer.result).toMatchObject({ resultType: "complete" });
      for (const absent of ["taskId", "status", "result", "error", "inputRequests"]) expect(ack.answer.result).not.toHaveProperty(absent);
    }
    expect(await settled(path, taskId)).toMatchObject({ status: "cancelled" });
    expect(await db.auditEvent.count({ where: { taskId, action: "task.canceled" } })).toBe(1);
  });

  it("a tool's error answer is `completed` with isError; a plain call stays a plain answer, 2025's `task` parameter or not", async () => {
    await gws[0]!.gateway.registry.updateTool(env.admin, "ops__fail", { async: true, riskTier: "LOW" });
    const taskId = (await post("/mcp", "tools/call", { name: "ops__fail", arguments: {} })).answer.result!.taskId as string;
    expect(await settled("/mcp", taskId)).toMatchObject({ status: "completed", result: { isError: true } });
    for (const caps of [DECLARED, {}]) {
      const legacy = await post("/mcp", "tools/call", { name: "ops__whoami", arguments: {}, task: { ttl: 1000 } }, { caps });
      expect(legacy.answer.result?.resultType).toBe("complete");
      expect(legacy.answer.result).not.toHaveProperty("taskId");
    }
  });

  it.each(["/mcp", "/mcp/s/ops"])("%s – an async tool (it only runs queued) without the extension: 400 -32021, nothing queued, the refusal audited", async (path) => {
    const t = tag("async-undeclared");
    const before = await db.task.count();
    const refused = await post(path, "tools/call", { name: path === "/mcp" ? "ops__slow_read" : "slow_read", arguments: { ms: 10, tag: t } }, { caps: {} });
    expect([refused.status, refused.answer.error?.code]).toEqual([400, -32021]);
    expect(refused.answer.error?.data).toEqual({ requiredCapabilities: { extensions: { [TASKS]: {} } } });
    expect(await db.task.count()).toBe(before);
    const audited = await db.auditEvent.findMany({ where: { requestId: { endsWith: `:${String(refused.id)}` } } });
    expect(audited.map((e) => [e.action, e.status, e.errorCode])).toEqual([["tool.called", "error", "task_required"]]);
    expect(starts(t)).toBe(0);
  });

  it("two cancels of one task racing on two processes: both acknowledged, the task canceled once", async () => {
    const taskId = (await post("/mcp", "tools/call", { name: "ops__hang", arguments: {} })).answer.result!.taskId as string;
    const acks = await Promise.all([0, 1, 0, 1].map((gw) => post("/mcp", "tasks/cancel", { taskId }, { gw })));
    expect(acks.map((a) => [a.status, a.answer.result?.resultType])).toEqual(Array(4).fill([200, "complete"]));
    expect(await settled("/mcp", taskId)).toMatchObject({ status: "cancelled" });
    expect(await db.auditEvent.count({ where: { taskId, action: "task.canceled" } })).toBe(1);
  });

  describe("a HIGH-tier call held for a person", () => {
    const URL_CLIENT = { ...DECLARED, elicitation: { url: {} } };

    it.each(["/mcp", "/mcp/s/ops"])("%s – shown as awaiting approval (input_required with the approval page), then run once after an approver decides on another process", async (path) => {
      const name = path === "/mcp" ? "ops__slow_write" : "slow_write";
      const t = tag("held");
      const created = await post(path, "tools/call", { name, arguments: { ms: 10, tag: t } }, { caps: URL_CLIENT });
      expect(created.answer.result).toMatchObject({ resultType: "task", status: "working", statusMessage: "awaiting approval" });
      const taskId = created.answer.result!.taskId as string;
      const approval = await db.approval.findFirstOrThrow({ where: { taskId } });
      const waiting = (await getTask(path, taskId, { caps: URL_CLIENT })).result!;
      expect(waiting).toMatchObject({ status: "input_required", statusMessage: "awaiting approval" });
      expect(waiting.inputRequests).toEqual({
        [`approval-${approval.id}`]: { method: "elicitation/create", params: expect.objectContaining({ mode: "url", elicitationId: approval.id, url: expect.stringMatching(new RegExp(`/approvals/${approval.id}$`)) as unknown }) as unknown },
      });
      // A client that cannot open a URL sees it working, awaiting approval.
      expect((await getTask(path, taskId)).result).toMatchObject({ status: "working", statusMessage: "awaiting approval" });
      expect(starts(t)).toBe(0);
      const approver = await insertUser(db, { role: "APPROVER" });
      await gws[1]!.gateway.approvals.decide(userContext(approver), { userId: approver.id, role: approver.role }, approval.id, { decision: "approve" });
      expect(await settled(path, taskId)).toMatchObject({ status: "completed", result: { content: [{ type: "text", text: `slow_write ${t} done` }] } });
      expect(starts(t)).toBe(1);
      const actions = (await db.auditEvent.findMany({ where: { taskId }, orderBy: { id: "asc" } })).map((e) => e.action);
      expect(actions).toEqual(expect.arrayContaining(["tool.called", "approval.requested", "approval.approved", "task.succeeded"]));
    });

    it("tasks/update – accepting acknowledges the request (asked no more); declining withdraws the call", async () => {
      const accepted = (await post("/mcp", "tools/call", { name: "ops__slow_write", arguments: { ms: 10, tag: tag("ack") } }, { caps: URL_CLIENT })).answer.result!.taskId as string;
      const key = Object.keys((await getTask("/mcp", accepted, { caps: URL_CLIENT })).result!.inputRequests as object)[0]!;
      const ack = await post("/mcp", "tasks/update", { taskId: accepted, inputResponses: { [key]: { action: "accept" }, "never-issued": { action: "accept" } } }, { caps: URL_CLIENT });
      expect(ack.answer.result).toMatchObject({ resultType: "complete" });
      expect(ack.answer.result).not.toHaveProperty("status");
      expect((await getTask("/mcp", accepted, { caps: URL_CLIENT, gw: 1 })).result).toMatchObject({ status: "working", statusMessage: "awaiting approval" });

      const t = tag("decline");
      const declined = (await post("/mcp", "tools/call", { name: "ops__slow_write", arguments: { ms: 10, tag: t } }, { caps: URL_CLIENT })).answer.result!.taskId as string;
      const key2 = Object.keys((await getTask("/mcp", declined, { caps: URL_CLIENT })).result!.inputRequests as object)[0]!;
      await post("/mcp", "tasks/update", { taskId: declined, inputResponses: { [key2]: { action: "decline" } } }, { caps: URL_CLIENT });
      expect((await getTask("/mcp", declined)).result).toMatchObject({ status: "cancelled" });
      expect(await db.approval.findFirstOrThrow({ where: { taskId: declined } })).toMatchObject({ status: "CANCELED" });
      expect(starts(t)).toBe(0);
      const bad = await post("/mcp", "tasks/update", { taskId: accepted, inputResponses: [] });
      expect([bad.status, bad.answer.error?.code, bad.answer.error?.data?.code]).toEqual([200, -32602, "invalid_input_responses"]);
      await post("/mcp", "tasks/cancel", { taskId: accepted });
    });

    it("a client declining while an approver approves on another process: the call runs once or not at all, never both", async () => {
      const approver = await insertUser(db, { role: "APPROVER" });
      for (let i = 0; i < 3; i++) {
        const t = tag("race");
        const taskId = (await post("/mcp", "tools/call", { name: "ops__slow_write", arguments: { ms: 10, tag: t } }, { caps: URL_CLIENT })).answer.result!.taskId as string;
        const approval = await db.approval.findFirstOrThrow({ where: { taskId } });
        const [, decided] = await Promise.allSettled([
          post("/mcp", "tasks/update", { taskId, inputResponses: { [`approval-${approval.id}`]: { action: "decline" } } }, { caps: URL_CLIENT }),
          gws[1]!.gateway.approvals.decide(userContext(approver), { userId: approver.id, role: approver.role }, approval.id, { decision: "approve" }),
        ]);
        const end = await settled("/mcp", taskId);
        if (end.status === "cancelled") {
          expect(decided.status).toBe("rejected");
          expect(starts(t)).toBe(0);
        } else {
          expect([decided.status, end.status]).toEqual(["fulfilled", "completed"]);
          expect(starts(t)).toBe(1);
        }
      }
    });

    it.each(["/mcp", "/mcp/s/ops"])("%s – without the extension the call is refused -32021 naming it: nothing held, the refusal audited", async (path) => {
      const name = path === "/mcp" ? "ops__slow_write" : "slow_write";
      const t = tag("undeclared");
      const before = await db.approval.count();
      const refused = await post(path, "tools/call", { name, arguments: { ms: 10, tag: t } }, { caps: {} });
      expect(refused.status).toBe(400);
      expect(refused.answer.error).toMatchObject({ code: -32021, data: { requiredCapabilities: { extensions: { [TASKS]: {} } } } });
      expect(await db.approval.count()).toBe(before);
      const audited = await db.auditEvent.findMany({ where: { requestId: { endsWith: `:${String(refused.id)}` } } });
      expect(audited.map((e) => [e.action, e.decision, e.errorCode])).toEqual([["tool.called", "require_approval", "approval_required"]]);
    });
  });

  it.each(["/mcp", "/mcp/s/ops", "/mcp/code"])("%s – tasks/get, tasks/update and tasks/cancel without the extension: 400 -32021", async (path) => {
    for (const [method, params] of [
      ["tasks/get", { taskId: "gate-test" }],
      ["tasks/update", { taskId: "gate-test", inputResponses: {} }],
      ["tasks/cancel", { taskId: "gate-test" }],
    ] as const) {
      const { status, answer } = await post(path, method, params, { caps: {} });
      expect([method, status, answer.error?.code]).toEqual([method, 400, -32021]);
      expect(answer.error?.data).toEqual({ requiredCapabilities: { extensions: { [TASKS]: {} } } });
    }
  });

  it("tasks/result and tasks/list are not 2026 methods: 404 -32601", async () => {
    for (const method of ["tasks/result", "tasks/list"]) {
      const { status, answer } = await post("/mcp", method, { taskId: "x" });
      expect([status, answer.error?.code]).toEqual([404, -32601]);
    }
  });

  it("a task is only the creating agent session's: foreign, forged, malformed and huge ids get stable refusals, and nothing changes", { timeout: fuzzTimeoutMs(60_000) }, async () => {
    const taskId = (await post("/mcp", "tools/call", { name: "ops__hang", arguments: {} })).answer.result!.taskId as string;
    // Another user's agent session, and another agent session of the same user.
    const owner = (await db.task.findUniqueOrThrow({ where: { id: taskId }, include: { owner: true } })).owner;
    const strangers = [(await userWithToken(db)).token, await agentToken(db, owner, { agentId: "sibling-agent" })];
    for (const [path, stranger] of [["/mcp", strangers[0]!], ["/mcp/s/ops", strangers[1]!], ["/mcp/code", strangers[0]!], ["/mcp", strangers[1]!]] as const) {
      for (const [method, params] of [
        ["tasks/get", { taskId }],
        ["tasks/update", { taskId, inputResponses: {} }],
        ["tasks/cancel", { taskId }],
      ] as const) {
        const { status, answer } = await post(path, method, params, { token: stranger });
        expect([path, method, status, answer.error?.code, answer.error?.data?.code]).toEqual([path, method, 200, -32602, "task_not_found"]);
      }
    }
    const forged = await post("/mcp", "tasks/get", { taskId: `${taskId.slice(0, -1)}x` });
    expect([forged.answer.error?.code, forged.answer.error?.data?.code]).toEqual([-32602, "task_not_found"]);
    for (const malformed of ["../tasks", "a b", "x".repeat(65), "x".repeat(4000)]) {
      const { status, answer } = await post("/mcp", "tasks/get", { taskId: malformed });
      expect([status, answer.error?.code, answer.error?.data?.code]).toEqual([200, -32602, "invalid_task_id"]);
    }
    // Any id at all, sent as a conforming client would (Base64-encoded when not plain ASCII): a stable refusal, never a 5xx.
    await fc.assert(
      fc.asyncProperty(fc.oneof(hostileString, fc.string({ minLength: 20, maxLength: 30 })), fc.constantFrom("tasks/get", "tasks/update", "tasks/cancel"), async (id, method) => {
        const header = /^[\x21-\x7e]*$/.test(id) && id.length > 0 ? id : `=?base64?${Buffer.from(id, "utf8").toString("base64")}?=`;
        const { status, answer } = await post("/mcp", method, { taskId: id, inputResponses: {} }, { headers: { "mcp-name": header } });
        expect(status, JSON.stringify(answer)).toBeLessThan(500);
        const outcome = [answer.error?.code, answer.error?.data?.code];
        expect([[-32602, "invalid_task_id"], [-32602, "task_not_found"], [-32020, undefined]]).toContainEqual(outcome);
      }),
      fuzzParams(60),
    );
    // Longer than a header may carry: refused by the routing-header check before anything reads the body.
    const huge = await post("/mcp", "tasks/get", { taskId: "x".repeat(9000) });
    expect([huge.status, huge.answer.error?.code]).toEqual([400, -32020]);
    // A taskId that is not a string cannot match its Mcp-Name header.
    const numeric = await post("/mcp", "tasks/get", { taskId: 5 }, { headers: { "mcp-name": "5" } });
    expect([numeric.status, numeric.answer.error?.code]).toEqual([400, -32020]);
    const mismatched = await post("/mcp", "tasks/get", { taskId }, { headers: { "mcp-name": "another-task" } });
    expect([mismatched.status, mismatched.answer.error?.code]).toEqual([400, -32020]);
    expect((await db.task.findUniqueOrThrow({ where: { id: taskId } })).status).toBe("RUNNING");
    await post("/mcp", "tasks/cancel", { taskId });
    expect(await settled("/mcp", taskId)).toMatchObject({ status: "cancelled" });
  });
});
