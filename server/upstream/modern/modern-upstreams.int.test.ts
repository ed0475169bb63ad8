// A 2026-07-28 upstream (the v2 server SDK fixture) behind the gateway: probed by server/discover and spoken to in
// its own generation; a 1.32 (2025) client and a v2 (2026) client at the same time on /mcp and /mcp/s — tools,
// resources, prompts, elicitation over several rounds, progress, cancellation; /mcp/code and a virtual server in
// front of it; a task end to end; the pipeline (audit, rate limit, tier) as for a 2025 upstream; and hostile states
// and upstreams.
import { Client as ClientV2, StreamableHTTPClientTransport as TransportV2 } from "@modelcontextprotocol/client";
import { Client as ClientV1 } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport as TransportV1 } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { CallToolResultSchema, CreateTaskResultSchema, ElicitRequestSchema, GetTaskResultSchema } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { insertUser, userContext } from "../../test/contexts";
import { startModernUpstream, type ModernUpstream } from "../../test/fixtures/modern-upstream-server";
import { firstText, startTestGateway, userWithToken, waitUntil, type TestGateway } from "../../test/gateway-harness";
import { createTestDb, truncateAll } from "../../test/test-db";
import { modernRequest } from "../../test/modern-request";
import { createLogger } from "../../logger";
import { createUpstreamPool } from "../upstream-pool";

const VERSION = "2026-07-28";
type Answer = { id?: unknown; result?: Record<string, unknown> & { inputRequests?: Record<string, { method: string }>; requestState?: string }; error?: { code: number; message: string; data?: Record<string, unknown> } };

type Options = { onprogress?: (p: { progress: number }) => void; signal?: AbortSignal };
/** A tools/call with request options: v1 takes a result schema before them, v2 does not. */
const callWith = (client: ClientV1 | ClientV2, params: { name: string; arguments: Record<string, unknown> }, o: Options) =>
  client instanceof ClientV1 ? client.callTool(params, undefined, o) : client.callTool(params, o);

/** Answers the fixture's "greet" questions: the name, then the colour. */
const answers = (name: string, color: string) => (message: string) => ({ action: "accept" as const, content: message.includes("name") ? ({ name } as Record<string, string>) : { color } });

describe("a 2026-07-28 upstream behind the gateway", () => {
  const db = createTestDb();
  let tg: TestGateway;
  let upstream: ModernUpstream;
  let token = "";
  let admin: ReturnType<typeof userContext>;
  let nextId = 1;
  const url = (path: string) => new URL(path, tg.http.url);
  const requestInit = () => ({ headers: { authorization: `Bearer ${token}` } });

  async function v1(path: string) {
    const client = new ClientV1({ name: "v1-agent", version: "1.32" }, { capabilities: { elicitation: {} } });
    client.setRequestHandler(ElicitRequestSchema, (r) => answers("alice", "green")(r.params.message));
    await client.connect(new TransportV1(url(path), { requestInit: requestInit() }));
    return client;
  }
  async function v2(path: string) {
    const client = new ClientV2({ name: "v2-agent", version: "2.4.0" }, { capabilities: { elicitation: {} }, versionNegotiation: { mode: { pin: VERSION } } });
    client.setRequestHandler("elicitation/create", (r) => answers("bob", "blue")(r.params.message));
    await client.connect(new TransportV2(url(path), { requestInit: requestInit() }));
    return client;
  }

  /** One raw 2026-07-28 tools/call on /mcp/s/modern. */
  async function call(name: string, extra: Record<string, unknown> = {}, args: Record<string, unknown> = {}) {
    const id = nextId++;
    const params = { name, arguments: args, ...extra, _meta: { "io.modelcontextprotocol/protocolVersion": VERSION, "io.modelcontextprotocol/clientCapabilities": { elicitation: {} } } };
    const res = await fetch(url("/mcp/s/modern"), {
      method: "POST",
      headers: { authorization: `Bearer ${token}`, accept: "application/json, text/event-stream", "content-type": "application/json", "mcp-protocol-version": VERSION, "mcp-method": "tools/call", "mcp-name": name },
      body: JSON.stringify({ jsonrpc: "2.0", id, method: "tools/call", params }),
    });
    const text = await res.text();
    const frames = (res.headers.get("content-type") ?? "").includes("text/event-stream") ? text.split("\n\n").flatMap((e) => /^data: (.*)$/m.exec(e)?.[1] ?? []).map((d) => JSON.parse(d) as Answer) : [JSON.parse(text) as Answer];
    return { status: res.status, answer: frames.find((m) => m.id === id) ?? {} };
  }

  beforeAll(async () => {
    await truncateAll(db);
    // Tasks started (the worker), for the task end to end below; no threshold, as the other tests expect answers.
    tg = await startTestGateway({ tasks: { thresholdMs: 0, sweepIntervalMs: 200 } });
    upstream = await startModernUpstream();
    admin = userContext(await insertUser(db, { role: "ADMIN" }));
    const { server } = await tg.gateway.registry.register(admin, { slug: "modern", name: "2026 fixture", transport: "http", url: upstream.url });
    if (server.status !== "HEALTHY") throw new Error(server.lastError ?? "the fixture did not start");
    token = (await userWithToken(db)).token;
  }, 60_000);

  afterAll(async () => {
    await tg?.close();
    await upstream?.close();
    await db.$disconnect();
  });

  it("is probed by server/discover and spoken to in 2026-07-28 only, whatever generation the agent speaks", async () => {
    const client = await v1("/mcp/s/modern");
    const tools = (await client.listTools()).tools.map((t) => t.name);
    expect(tools).toEqual(expect.arrayContaining(["echo", "greet", "count", "slow"]));
    expect(firstText(await client.callTool({ name: "echo", arguments: { text: "hi" } }))).toBe("echo: hi");
    await client.close();
    // The pool's connection, its listing and the 2025 agent's own upstream session: all of the 2026 wire.
    expect(upstream.eras()).toMatchObject({ legacy: 0 });
    expect(upstream.eras().modern).toBeGreaterThan(3);
  });

  it("the fixture itself refuses a call to an x-mcp-header tool without its Mcp-Param header (what the gateway sends is checked)", async () => {
    const meta = { "io.modelcontextprotocol/protocolVersion": VERSION, "io.modelcontextprotocol/clientCapabilities": {} };
    const res = await fetch(upstream.url, {
      method: "POST",
      headers: { accept: "application/json, text/event-stream", "content-type": "application/json", "mcp-protocol-version": VERSION, "mcp-method": "tools/call", "mcp-name": "regional" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "regional", arguments: { region: "eu" }, _meta: meta } }),
    });
    expect(res.status).toBe(400);
    expect(((await res.json()) as Answer).error?.code).toBe(-32020);
  });

  it("the pool says which generation a connection speaks", async () => {
    const pool = createUpstreamPool(createLogger("silent"));
    try {
      const defs = await pool.start({ serverId: "modern-fixture", slug: "m", role: "active", launch: { transport: "HTTP", url: upstream.url, headers: {} }, maxConcurrency: 1 });
      expect(defs.serverInfo).toMatchObject({ name: "modern-fixture", version: "2.4.0" });
      expect(pool.status("modern-fixture")).toMatchObject({ status: "HEALTHY", generation: "2026-07-28" });
    } finally {
      await pool.close();
    }
  });

  for (const path of ["/mcp/s/modern", "/mcp"]) {
    const name = (n: string) => (path === "/mcp" ? `modern__${n}` : n);
    it(`${path}: a v1 and a v2 client at once — tools, resources, prompts, progress`, async () => {
      const [a, b] = await Promise.all([v1(path), v2(path)]);
      for (const [client, who] of [[a, "v1"], [b, "v2"]] as const) {
        const echo = await client.callTool({ name: name("echo"), arguments: { text: who } });
        expect(firstText(echo)).toBe(`echo: ${who}`);
        const read = await client.readResource({ uri: "modern://greeting" });
        expect(read.contents[0]).toMatchObject({ text: "hello from 2026" });
        const prompt = await client.getPrompt({ name: name("modern_prompt"), arguments: { topic: who } });
        expect(prompt.messages[0]?.content).toMatchObject({ text: `Tell me about ${who}` });
        // A parameter the upstream wants mirrored in Mcp-Param-Region (non-ASCII: Base64-encoded).
        expect(firstText(await client.callTool({ name: name("regional"), arguments: { region: "Zürich" } }))).toBe("served in Zürich");
        const progress: number[] = [];
        const counted = await callWith(client, { name: name("count"), arguments: { steps: 3 } }, { onprogress: (p) => void progress.push(p.progress) });
        expect(firstText(counted)).toBe("counted 3");
        expect({ who, progress }).toEqual({ who, progress: [1, 2, 3] });
      }
      await Promise.all([a.close(), b.close()]);
    });
  }

  it("/mcp/code and a virtual server: a v1 and a v2 client at once reach the 2026 upstream (a program's call, a renamed tool)", async () => {
    await tg.gateway.virtualServers.create(admin, { name: "desk26", members: [{ kind: "tool", server: "modern", name: "echo", exposedName: "say" }] });
    const clients = await Promise.all([v1("/mcp/code"), v2("/mcp/code"), v1("/mcp/v/desk26"), v2("/mcp/v/desk26")]);
    const [c1, c2, d1, d2] = clients;
    for (const [client, who] of [[c1, "code-v1"], [c2, "code-v2"]] as const) {
      const ran = await client.callTool({ name: "execute_code", arguments: { code: `return await tools.modern.echo({ text: ${JSON.stringify(who)} });` } });
      expect(JSON.stringify(ran.content)).toContain(`echo: ${who}`);
    }
    for (const [client, who] of [[d1, "desk-v1"], [d2, "desk-v2"]] as const) {
      expect((await client.listTools()).tools.map((t) => t.name)).toContain("say");
      expect(firstText(await client.callTool({ name: "say", arguments: { text: who } }))).toBe(`echo: ${who}`);
    }
    await Promise.all(clients.map((c) => c.close()));
    // Audited under the real name, with the virtual server's name beside it.
    const rows = await db.auditEvent.findMany({ where: { action: "tool.called", toolName: "modern__echo", endpoint: "virtual" } });
    expect(rows.map((r) => (r.details as { virtualName?: string } | null)?.virtualName)).toEqual(["say", "say"]);
  });

  it("a task end to end against the 2026 upstream: a 2026 client's tasks extension and a v1 client's 2025 task at once", async () => {
    await tg.gateway.registry.updateTool(admin, "modern__count", { async: true });
    const post = async (method: string, params: Record<string, unknown>) =>
      (await modernRequest(url("/mcp/s/modern"), method, params, { token, capabilities: { extensions: { "io.modelcontextprotocol/tasks": {} } } })).answer;
    const legacy = await v1("/mcp/s/modern");
    const [created, old] = await Promise.all([
      post("tools/call", { name: "count", arguments: { steps: 2 } }),
      legacy.request({ method: "tools/call", params: { name: "count", arguments: { steps: 3 }, task: { ttl: 60_000 } } }, CreateTaskResultSchema),
    ]);
    expect(created.result).toMatchObject({ resultType: "task", status: "working" });
    const taskId = created.result!.taskId as string;
    const done = await waitUntil("the 2026 client's task to complete", async () => {
      const got = (await post("tasks/get", { taskId })).result;
      return got?.status === "completed" ? got : undefined;
    });
    expect(done).toMatchObject({ result: { content: [{ type: "text", text: "counted 2" }] } });
    await waitUntil("the 2025 task to complete", async () => (await legacy.request({ method: "tasks/get", params: { taskId: old.task.taskId } }, GetTaskResultSchema)).status === "completed");
    expect(firstText(await legacy.request({ method: "tasks/result", params: { taskId: old.task.taskId } }, CallToolResultSchema))).toBe("counted 3");
    await legacy.close();
    await tg.gateway.registry.updateTool(admin, "modern__count", { async: false });
  });

  it("/mcp/s: elicitation over two rounds — server→client requests for the v1 client, input_required passed through for the v2 client", async () => {
    const [a, b] = await Promise.all([v1("/mcp/s/modern"), v2("/mcp/s/modern")]);
    const [ra, rb] = await Promise.all([a.callTool({ name: "greet", arguments: {} }), b.callTool({ name: "greet", arguments: {} })]);
    expect(firstText(ra)).toBe("Hello alice, you like green");
    expect(firstText(rb)).toBe("Hello bob, you like blue");
    await Promise.all([a.close(), b.close()]);
  });

  it("/mcp: a 2026 upstream's question cannot reach an agent there (as for a 2025 upstream): it says where to go", async () => {
    const client = await v1("/mcp");
    const res = await client.callTool({ name: "modern__greet", arguments: {} });
    expect(res.isError).toBe(true);
    expect(firstText(res)).toContain("/mcp/s/");
    await client.close();
  });

  it("cancellation reaches the 2026 upstream: a v1 client's notifications/cancelled and a v2 client's abort", async () => {
    const [a, b] = await Promise.all([v1("/mcp/s/modern"), v2("/mcp/s/modern")]);
    for (const [i, client] of [a, b].entries()) {
      const stop = new AbortController();
      const running = callWith(client, { name: "slow", arguments: {} }, { signal: stop.signal }).catch((err: unknown) => err);
      await upstream.slowStarted(i + 1);
      stop.abort(new Error("enough"));
      expect(await running).toBeInstanceOf(Error);
      // The gateway cancels the upstream call: its stream to the upstream is closed, the tool's signal aborts.
      await upstream.slowCancelled(i + 1);
    }
    await Promise.all([a.close(), b.close()]);
  });

  it("the pipeline applies as to a 2025 upstream: audit rows, the tool's rate limit, the output bound, the HIGH tier's approval", async () => {
    const client = await v2("/mcp/s/modern");
    const v1Client = await v1("/mcp");
    const before = await db.auditEvent.count({ where: { action: "tool.called", toolName: "modern__echo" } });
    await client.callTool({ name: "echo", arguments: { text: "audited" } });
    await v1Client.callTool({ name: "modern__echo", arguments: { text: "audited" } });
    const rows = await db.auditEvent.findMany({ where: { action: "tool.called", toolName: "modern__echo" }, orderBy: { id: "asc" }, skip: before });
    // Both endpoints, both generations of client: rows as for any upstream.
    expect(rows.map((r) => [r.endpoint, r.status])).toEqual([["server", "ok"], ["mcp", "ok"]]);
    // A tool not called before (a process leases a block of a tool's budget under the limit it had).
    await tg.gateway.registry.updateTool(admin, "modern__whoami", { rateLimitPerMinute: 1 });
    const outcomes = [];
    for (const c of [v1Client, client, v1Client]) {
      const r = await c.callTool({ name: c === client ? "whoami" : "modern__whoami", arguments: {} });
      outcomes.push(r.isError ? firstText(r) : "ok");
    }
    expect(outcomes[0]).toBe("ok");
    expect(outcomes.slice(1).every((o) => o.includes("rate_limited"))).toBe(true);
    // The output bound (100 KB) cuts a 2026 upstream's answer as any other.
    for (const [c, tool] of [[client, "big"], [v1Client, "modern__big"]] as const) {
      const big = await c.callTool({ name: tool, arguments: { kb: 200 } });
      expect(big._meta).toHaveProperty("portcullis/truncated");
      expect(JSON.stringify(big).length).toBeLessThan(110 * 1024);
    }
    await tg.gateway.registry.updateTool(admin, "modern__echo", { riskTier: "HIGH" });
    // Held for approval: a 2025 session is told so; a 2026 client that cannot take a task gets -32021 (tasks extension).
    const held = await v1Client.callTool({ name: "modern__echo", arguments: { text: "held" } });
    expect(held.structuredContent).toMatchObject({ approval_status: "PENDING" });
    await expect(client.callTool({ name: "echo", arguments: { text: "held" } })).rejects.toThrow(/io.modelcontextprotocol\/tasks/);
    await tg.gateway.registry.updateTool(admin, "modern__echo", { riskTier: "LOW" });
    await Promise.all([client.close(), v1Client.close()]);
  });

  describe("hostile states and upstreams (2026 client, /mcp/s)", () => {
    it("the upstream's state goes out only wrapped: altered, moved to another call, or garbage, it is refused before the upstream sees it", async () => {
      const first = await call("greet");
      const state = first.answer.result!.requestState!;
      expect(first.answer.result!.inputRequests).toHaveProperty("name");
      expect(state.startsWith("w.")).toBe(true);
      expect(state).not.toContain("v1."); // the fixture's codec prefix: the upstream's state is inside, not beside
      const inputResponses = { name: { action: "accept", content: { name: "eve" } } };
      const altered = state.slice(0, -2) + (state.endsWith("A") ? "BB" : "AA");
      for (const [bad, reason] of [[altered, /integrity/], [`w.${"x".repeat(64)}`, /not one this gateway issued/], ["w.a.b", /integrity/]] as const) {
        const res = await call("greet", { inputResponses, requestState: bad });
        expect(res.status).toBe(400);
        expect(res.answer.error).toMatchObject({ code: -32602, message: expect.stringMatching(reason) as unknown });
      }
      const moved = await call("echo", { inputResponses, requestState: state }, { text: "x" });
      expect(moved.answer.error).toMatchObject({ code: -32602, message: expect.stringMatching(/another request/) as unknown });
      const next = await call("greet", { inputResponses, requestState: state });
      expect(next.answer.result!.inputRequests).toHaveProperty("color");
    });

    it("an upstream requestState over 16384 characters is not carried: a clear error", async () => {
      const res = await call("huge_state");
      // A tool call's upstream failure is a tool error (the pipeline's upstream_error), naming the cause.
      expect(res.answer.result).toMatchObject({ isError: true });
      expect(firstText(res.answer.result)).toMatch(/requestState is longer than 16384 characters/);
    });

    it("an upstream that asks forever is stopped after 8 rounds, for a 2026 client and for a 2025 client", async () => {
      let res = await call("forever");
      for (let round = 1; res.answer.result?.resultType === "input_required"; round++) {
        expect(round).toBeLessThanOrEqual(8);
        res = await call("forever", { inputResponses: { again: { action: "accept", content: { again: "y" } } }, requestState: res.answer.result.requestState });
      }
      expect(res.answer.error).toMatchObject({ code: -32603, data: { reason: "upstream_input_rounds_exceeded" } });
      const client = await v1("/mcp/s/modern");
      const translated = await client.callTool({ name: "forever", arguments: {} });
      expect(translated.isError).toBe(true);
      expect(firstText(translated)).toMatch(/asked for input 9 times/);
      await client.close();
    });
  });
});
