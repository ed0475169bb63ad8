// Both generations on one URL: 2026-07-28 stateless requests beside 2025 sessions on /mcp, /mcp/s/<slug> and
// /mcp/code, with the routing headers checked against the body before anything is routed, limited or audited;
// v1 and v2 SDK clients at once on each endpoint.
import { Client as ClientV2, StreamableHTTPClientTransport as TransportV2 } from "@modelcontextprotocol/client";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { fuzzParams, fuzzTimeoutMs, hostileJson, hostileString } from "../../test/fuzz";
import { connectAgent, everythingServer, firstText, setUpGatewayTest, waitUntil, type GatewayTestEnv, type Agent, type TestGateway } from "../../test/gateway-harness";
import { parsePromText, sampleValue } from "../../test/prom-text";
import { createTestDb } from "../../test/test-db";

const VERSION = "2026-07-28";
const META = { "io.modelcontextprotocol/protocolVersion": VERSION, "io.modelcontextprotocol/clientCapabilities": {}, "io.modelcontextprotocol/clientInfo": { name: "raw-2026", version: "1" } };
type Answer = { id?: unknown; result?: Record<string, unknown> & { _meta?: Record<string, unknown> }; error?: { code: number; message: string; data?: Record<string, unknown> } };

describe("MCP 2026-07-28 beside 2025 on the same endpoints", () => {
  const db = createTestDb();
  let tg: TestGateway;
  let token = "";
  let nextId = 1;

  /** The headers a conforming 2026 client sends for `method` (Mcp-Name from params.name or params.uri). */
  const standardHeaders = (method: string, params: Record<string, unknown>): Record<string, string> => {
    const name = params.name ?? params.uri;
    return { "mcp-protocol-version": VERSION, "mcp-method": method, ...(typeof name === "string" && { "mcp-name": name }) };
  };
  /** `headers` override the standard ones; null leaves one out. */
  async function post(path: string, method: string, params: Record<string, unknown> = {}, headers: Record<string, string | null> = {}, id: number = nextId++) {
    const all = { authorization: `Bearer ${token}`, accept: "application/json, text/event-stream", "content-type": "application/json", ...standardHeaders(method, params), ...headers };
    const res = await fetch(new URL(path, tg.http.url), {
      method: "POST",
      headers: Object.fromEntries(Object.entries(all).filter((e): e is [string, string] => e[1] !== null)),
      body: JSON.stringify({ jsonrpc: "2.0", id, method, params: { ...params, _meta: { ...META, ...(params._meta as object | undefined) } } }),
    });
    const type = res.headers.get("content-type") ?? "";
    const text = await res.text();
    const answer = (type.includes("text/event-stream") ? JSON.parse(/^data: (.*)$/m.exec(text.split("\n\n").filter((e) => e.includes('"id"')).pop() ?? "")?.[1] ?? "{}") : text ? JSON.parse(text) : {}) as Answer;
    return { status: res.status, answer, headers: res.headers, id };
  }
  const auditedCalls = (id: number) => db.auditEvent.findMany({ where: { requestId: { endsWith: `:${id}` } } });

  let env: GatewayTestEnv;
  beforeAll(async () => {
    env = await setUpGatewayTest(db, "modern");
    tg = env.gateways[0]!;
    token = env.token;
    const { server } = await tg.gateway.registry.register(env.admin, everythingServer());
    if (server.status !== "HEALTHY") throw new Error(server.lastError ?? "everything did not start");
  }, 60_000);
  afterAll(() => env?.close());

  it.each(["/mcp", "/mcp/s/everything", "/mcp/code"])("POST %s server/discover – versions of both generations, capabilities, identity, caching hints", async (path) => {
    const { status, answer, headers } = await post(path, "server/discover");
    expect(status).toBe(200);
    expect(headers.get("mcp-session-id")).toBeNull();
    expect(answer.result).toMatchObject({ resultType: "complete", supportedVersions: expect.arrayContaining([VERSION, "2025-11-25"]) as unknown, capabilities: { tools: {} }, ttlMs: 60_000, cacheScope: "private" });
    expect(answer.result?._meta?.["io.modelcontextprotocol/serverInfo"]).toMatchObject({ name: expect.any(String) as unknown });
  });

  it("POST /mcp tools/list – stateless, private caching hints, names in a deterministic order", async () => {
    const { status, answer } = await post("/mcp", "tools/list");
    expect(status).toBe(200);
    const names = (answer.result?.tools as { name: string }[]).map((t) => t.name);
    expect(names).toContain("everything__echo");
    expect(names).toEqual([...names].sort());
    expect(answer.result).toMatchObject({ resultType: "complete", ttlMs: 60_000, cacheScope: "private" });
  });

  it.each([
    ["/mcp", "everything__echo"],
    ["/mcp/s/everything", "echo"],
  ])("POST %s tools/call – answered and audited under the body's name (%s), no session minted", async (path, name) => {
    const { status, answer, headers, id } = await post(path, "tools/call", { name, arguments: { message: "hi 2026" } }, { "mcp-session-id": "ignored-for-2026" });
    // Under load this was once a 400 -32021 for roots: server-everything's own roots/list, 350 ms after initialize,
    // landed on this call (D190). The answer says what a non-200 was.
    expect(status, JSON.stringify(answer)).toBe(200);
    expect(headers.get("mcp-session-id")).toBeNull();
    expect(answer.result?.resultType).toBe("complete");
    expect(firstText(answer.result)).toContain("hi 2026");
    const events = await auditedCalls(id);
    expect(events.map((e) => [e.action, e.toolName])).toEqual([["tool.called", "everything__echo"]]);
  });

  it("a virtual server speaks 2026 too: its served name is listed, called, audited under the real tool, and checked against Mcp-Name", async () => {
    await tg.gateway.virtualServers.create(env.admin, { name: "desk-2026", members: [{ kind: "tool", server: "everything", name: "echo", exposedName: "say" }] });
    const listed = await post("/mcp/v/desk-2026", "tools/list");
    expect(listed.status).toBe(200);
    expect((listed.answer.result?.tools as { name: string }[]).map((t) => t.name)).toContain("say");
    expect(listed.answer.result).toMatchObject({ resultType: "complete", cacheScope: "private" });
    const called = await post("/mcp/v/desk-2026", "tools/call", { name: "say", arguments: { message: "hi virtual 2026" } });
    expect(called.status).toBe(200);
    expect(firstText(called.answer.result)).toContain("hi virtual 2026");
    const events = await auditedCalls(called.id);
    expect(events.map((e) => [e.action, e.toolName, (e.details as { virtualName?: string } | null)?.virtualName])).toEqual([["tool.called", "everything__echo", "say"]]);
    const mismatch = await post("/mcp/v/desk-2026", "tools/call", { name: "say", arguments: { message: "x" } }, { "mcp-name": "everything__echo" });
    expect([mismatch.status, mismatch.answer.error?.code]).toEqual([400, -32020]);
    expect(await auditedCalls(mismatch.id)).toEqual([]);
  });

  it.each([
    ["/mcp", "everything__trigger-long-running-operation"],
    ["/mcp/s/everything", "trigger-long-running-operation"],
  ])("POST %s tools/call with a progress token – progress streamed, then the result", async (path, name) => {
    const { status, answer, headers } = await post(path, "tools/call", { name, arguments: { duration: 0.2, steps: 2 }, _meta: { progressToken: "p1" } });
    expect(status).toBe(200);
    expect(headers.get("content-type")).toContain("text/event-stream");
    expect(answer.result?.resultType).toBe("complete");
  });

  // A stateless call holds its upstream session alone until its answer ends (stateless-leases.ts); the answer's end
  // must free it, or each next call of the agent session opens (and for stdio, starts) an upstream session of its own.
  it("sequential 2026 calls on /mcp/s/everything share one upstream session: one process for six calls, with and without streamed progress", async () => {
    const processes = async () => sampleValue(parsePromText(await tg.gateway.metrics().scrape()), "portcullis_transparent_upstream_processes", { server: "everything" }) ?? 0;
    const before = await processes();
    for (let i = 0; i < 3; i++) {
      const plain = await post("/mcp/s/everything", "tools/call", { name: "echo", arguments: { message: `seq-${String(i)}` } });
      expect(firstText(plain.answer.result)).toContain(`seq-${String(i)}`);
      const streamed = await post("/mcp/s/everything", "tools/call", { name: "trigger-long-running-operation", arguments: { duration: 0.1, steps: 1 }, _meta: { progressToken: `seq-${String(i)}` } });
      expect(streamed.headers.get("content-type")).toContain("text/event-stream");
      expect(streamed.answer.result?.resultType).toBe("complete");
    }
    expect((await processes()) - before).toBeLessThanOrEqual(1);
  });

  it("closing a 2026 response stream cancels the call behind it", async () => {
    const id = nextId++;
    const name = "everything__trigger-long-running-operation";
    const abort = new AbortController();
    const res = await fetch(new URL("/mcp", tg.http.url), {
      method: "POST",
      signal: abort.signal,
      headers: { authorization: `Bearer ${token}`, accept: "application/json, text/event-stream", "content-type": "application/json", "mcp-protocol-version": VERSION, "mcp-method": "tools/call", "mcp-name": name },
      body: JSON.stringify({ jsonrpc: "2.0", id, method: "tools/call", params: { name, arguments: { duration: 30, steps: 30 }, _meta: { ...META, progressToken: "p2" } } }),
    });
    const reader = res.body!.getReader();
    // The first progress event: the call is running upstream.
    let seen = "";
    while (!seen.includes("notifications/progress")) seen += new TextDecoder().decode((await reader.read()).value);
    abort.abort();
    const event = await waitUntil("the cancelled call's audit event", async () => (await auditedCalls(id)).find((e) => e.action === "tool.called"), 15_000);
    expect(event.status).not.toBe("ok");
    expect(event.durationMs).toBeLessThan(30_000);
  });

  it("POST /mcp with an unsupported version – 400 UnsupportedProtocolVersion listing the versions served", async () => {
    const { status, answer } = await post("/mcp", "tools/list", { _meta: { "io.modelcontextprotocol/protocolVersion": "1999-01-01" } }, { "mcp-protocol-version": "1999-01-01" });
    expect(status).toBe(400);
    expect(answer.error).toMatchObject({ code: -32022, data: { requested: "1999-01-01", supported: expect.arrayContaining([VERSION]) as unknown } });
  });

  it.each(["initialize", "ping", "logging/setLevel", "resources/subscribe", "no/such"])("POST /mcp %s at 2026-07-28 – 404 Method not found with the request's id", async (method) => {
    const { status, answer, id } = await post("/mcp", method);
    expect(status).toBe(404);
    expect(answer).toMatchObject({ id, error: { code: -32601 } });
  });

  it("POST /mcp without the version and capabilities in _meta – 400 Invalid params", async () => {
    const res = await fetch(new URL("/mcp", tg.http.url), {
      method: "POST",
      headers: { authorization: `Bearer ${token}`, accept: "application/json, text/event-stream", "content-type": "application/json", "mcp-protocol-version": VERSION, "mcp-method": "tools/list" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 7, method: "tools/list", params: {} }),
    });
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ id: 7, error: { code: -32602 } });
  });

  it.each(["GET", "DELETE"])("%s /mcp from a 2026 client – 405", async (method) => {
    const res = await fetch(new URL("/mcp", tg.http.url), { method, headers: { authorization: `Bearer ${token}`, accept: "text/event-stream", "mcp-protocol-version": VERSION, "mcp-session-id": "x", "last-event-id": "y" } });
    expect(res.status).toBe(405);
    expect(res.headers.get("allow")).toBe("POST");
  });

  describe("header attacks: refused before routing, limits or audit", () => {
    const call = { name: "everything__echo", arguments: { message: "x" } };
    it.each<[string, Record<string, string | null>, RegExp]>([
      ["Mcp-Name names another tool", { "mcp-name": "everything__get-env" }, /Mcp-Name/],
      ["Mcp-Method names another method", { "mcp-method": "tools/list" }, /Mcp-Method/],
      ["Mcp-Name is missing", { "mcp-name": null }, /Mcp-Name header is required/],
      ["Mcp-Method is missing", { "mcp-method": null }, /Mcp-Method header is required/],
      ["MCP-Protocol-Version is missing", { "mcp-protocol-version": null }, /MCP-Protocol-Version header is required/],
      ["MCP-Protocol-Version disagrees with _meta", { "mcp-protocol-version": "2025-11-25" }, /MCP-Protocol-Version/],
      ["Mcp-Name is oversized", { "mcp-name": `=?base64?${Buffer.from("a".repeat(7000)).toString("base64")}?=` }, /longer than 8192/],
      ["Mcp-Name is bad Base64", { "mcp-name": "=?base64?ZXZlcnl0aGluZ19fZWNobw?=" }, /not valid Base64/],
      ["Mcp-Name is Base64 of invalid UTF-8", { "mcp-name": `=?base64?${Buffer.from([0xff, 0xfe]).toString("base64")}?=` }, /UTF-8/],
      ["an Mcp-Param header is malformed", { "mcp-param-region": "=?base64?!!!?=" }, /mcp-param-region/],
    ])("%s – 400 HeaderMismatch, nothing audited", async (_what, headers, message) => {
      const res = await post("/mcp", "tools/call", call, headers);
      expect(res.status).toBe(400);
      expect(res.answer).toMatchObject({ id: res.id, error: { code: -32020, message: expect.stringMatching(message) as unknown } });
      expect(await auditedCalls(res.id)).toEqual([]);
    });

    // What an HTTP client can send in a header at all: printable ASCII.
    const headerValue = fc.string({ unit: fc.integer({ min: 0x21, max: 0x7e }).map((c) => String.fromCharCode(c)), maxLength: 80 });
    const encoded = (s: string) => `=?base64?${Buffer.from(s).toString("base64")}?=`;
    it(
      "fuzz: hostile routing headers, names and _meta – always a well-formed answer, and a call never runs under a name its header does not carry",
      { timeout: fuzzTimeoutMs(40_000) },
      async () => {
        await fc.assert(
          fc.asyncProperty(
            fc.constantFrom("tools/call", "tools/list", "server/discover", "resources/read", "prompts/get", "nope"),
            fc.oneof(fc.constant("everything__echo"), hostileString),
            fc.oneof(fc.constant("same"), fc.constant("other"), fc.constant("encoded"), headerValue.map((v) => `raw:${v}`), fc.constant("absent")),
            fc.oneof(fc.constant("same"), headerValue),
            fc.oneof(fc.constant(undefined), hostileJson),
            async (method, name, nameHeader, methodHeader, meta) => {
              const mcpName = nameHeader === "same" ? name : nameHeader === "other" ? "everything__get-env" : nameHeader === "encoded" ? encoded(name) : nameHeader === "absent" ? null : nameHeader.slice(4);
              const params = { name, uri: name, arguments: { message: "fuzz" }, ...(meta !== undefined && { _meta: meta }) };
              const headers = { "mcp-name": mcpName && /^[\x20-\x7e]*$/.test(mcpName) ? mcpName : null, "mcp-method": methodHeader === "same" ? method : methodHeader };
              const res = await post("/mcp", method, params, headers);
              expect(res.status, JSON.stringify(res.answer)).toBeLessThan(500);
              if (res.status !== 202) expect(res.answer).toMatchObject({ jsonrpc: "2.0" });
              const agreed = headers["mcp-name"] !== null && (headers["mcp-name"] === name || headers["mcp-name"] === encoded(name)) && headers["mcp-method"] === method;
              if (method === "tools/call" && !agreed) {
                expect(res.status).toBe(400);
                expect(await auditedCalls(res.id)).toEqual([]);
              }
            },
          ),
          fuzzParams(40),
        );
      },
    );

    it("requests whose Mcp-Name names a rate-limited tool use none of that tool's budget", async () => {
      await tg.gateway.registry.updateTool(env.admin, "everything__get-env", { rateLimitPerMinute: 1 });
      for (let i = 0; i < 3; i++) expect((await post("/mcp", "tools/call", call, { "mcp-name": "everything__get-env" })).status).toBe(400);
      const genuine = await post("/mcp", "tools/call", { name: "everything__get-env", arguments: {} });
      expect(genuine.answer.result?.isError ?? false).toBe(false);
      // The limit is in force: the next genuine call is over it.
      const over = await post("/mcp", "tools/call", { name: "everything__get-env", arguments: {} });
      expect(JSON.stringify(over.answer)).toContain("rate_limited");
    });

    it("a Base64-encoded Mcp-Name that decodes to the body's name is served", async () => {
      const { status, answer } = await post("/mcp", "tools/call", call, { "mcp-name": `=?base64?${Buffer.from(call.name).toString("base64")}?=` });
      expect(status).toBe(200);
      expect(firstText(answer.result)).toContain("x");
    });
  });

  it("a 2025 SDK client (1.32) with a session and 2026 stateless requests at the same time on /mcp and /mcp/s/everything", async () => {
    const agents: Agent[] = await Promise.all(["/mcp", "/mcp/s/everything"].map((p) => connectAgent(new URL(p, tg.http.url), token)));
    try {
      const [v1Aggregate, v1Transparent, ...modern] = await Promise.all([
        agents[0]!.client.callTool({ name: "everything__echo", arguments: { message: "v1" } }),
        agents[1]!.client.callTool({ name: "echo", arguments: { message: "v1s" } }),
        post("/mcp", "tools/call", { name: "everything__echo", arguments: { message: "v2" } }),
        post("/mcp/s/everything", "tools/call", { name: "echo", arguments: { message: "v2s" } }),
        post("/mcp/s/everything", "tools/list"),
      ]);
      expect(firstText(v1Aggregate)).toContain("v1");
      expect(firstText(v1Transparent)).toContain("v1s");
      expect(firstText(modern[0].answer.result)).toContain("v2");
      expect(firstText(modern[1].answer.result)).toContain("v2s");
      expect((modern[2].answer.result?.tools as { name: string }[]).map((t) => t.name)).toContain("echo");
      // The 2025 sessions are untouched by the stateless requests: they still list their tools.
      expect((await agents[0]!.client.listTools()).tools.map((t) => t.name)).toContain("everything__echo");
      expect((await agents[1]!.client.listTools()).tools.map((t) => t.name)).toContain("echo");
    } finally {
      for (const a of agents) await a.close();
    }
  });

  // Real SDK clients of both generations at once: v1 (1.32, 2025-11-25 with a session) and v2 (2.4.0, 2026-07-28
  // by server/discover, and pinned).
  describe("v1 and v2 SDK clients side by side", () => {
    async function connectV2(url: URL, mode: "auto" | { pin: string }) {
      const client = new ClientV2({ name: "v2-agent", version: "2.4.0" }, { versionNegotiation: { mode } });
      await client.connect(new TransportV2(url, { requestInit: { headers: { authorization: `Bearer ${token}` } } }));
      return client;
    }

    it.each([
      ["/mcp", "everything__echo"],
      ["/mcp/s/everything", "echo"],
      ["/mcp/code", null],
    ])("%s – tools/list and tools/call for a v1 client and two v2 clients at once", async (path, echo) => {
      const url = new URL(path, tg.http.url);
      const v1 = await connectAgent(url, token);
      const [auto, pinned] = await Promise.all([connectV2(url, "auto"), connectV2(url, { pin: "2026-07-28" })]);
      try {
        expect(auto.getNegotiatedProtocolVersion()).toBe("2026-07-28");
        expect(pinned.getNegotiatedProtocolVersion()).toBe("2026-07-28");
        const lists = await Promise.all([v1.client.listTools(), auto.listTools(), pinned.listTools()]);
        const names = lists.map((l) => l.tools.map((t) => t.name));
        expect(names[1]).toEqual(names[0]);
        expect(names[2]).toEqual(names[0]);
        // /mcp/code offers its own tools; the others the upstream's echo.
        const tool = echo ?? names[0]!.find((n) => n === "search_tools")!;
        const args = echo ? { message: "both generations" } : { query: "echo" };
        const results = await Promise.all([v1.client.callTool({ name: tool, arguments: args }), auto.callTool({ name: tool, arguments: args }), pinned.callTool({ name: tool, arguments: args })]);
        for (const r of results) expect(r.isError ?? false).toBe(false);
        if (echo) for (const r of results) expect(firstText(r)).toContain("both generations");
        else expect(firstText(results[1])).toEqual(firstText(results[0]));
      } finally {
        await Promise.all([v1.close(), auto.close(), pinned.close()]);
      }
    });
  });
});
