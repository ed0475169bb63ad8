// MRTR through /mcp/s/<slug> in front of a 2025 upstream: the upstream's elicitation or sampling reaches a
// 2026-07-28 client as `input_required`, its retry with `inputResponses` and the signed `requestState` finishes
// the same upstream call (audited once); a state that was altered, replayed, or belongs to another request or
// agent session is refused; a client that did not declare the capability gets -32021 (roots, which the upstream
// asks for on its own, excepted).
import { Client as ClientV2, StreamableHTTPClientTransport as TransportV2 } from "@modelcontextprotocol/client";
import { Client as ClientV1 } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport as TransportV1 } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { CreateMessageRequestSchema, ElicitRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startConformanceServerHttp, type RunningServer } from "../../../scripts/test-support/conformance";
import { insertUser, userContext } from "../../test/contexts";
import { firstText, startTestGateway, userWithToken, type TestGateway } from "../../test/gateway-harness";
import { createTestDb, truncateAll } from "../../test/test-db";

const VERSION = "2026-07-28";
type Result = Record<string, unknown> & { resultType?: string; inputRequests?: Record<string, { method: string; params: Record<string, unknown> }>; requestState?: string };
type Answer = { id?: unknown; result?: Result; error?: { code: number; message: string; data?: Record<string, unknown> } };

describe("MRTR: a 2025 upstream's requests to the client, for a 2026-07-28 client", () => {
  const db = createTestDb();
  let tg: TestGateway;
  let upstream: RunningServer;
  let token = "";
  let otherToken = "";
  let nextId = 1;

  async function call(name: string, args: Record<string, unknown>, opts: { capabilities?: Record<string, unknown>; extra?: Record<string, unknown>; token?: string; meta?: Record<string, unknown> } = {}) {
    const id = nextId++;
    const params = { name, arguments: args, ...opts.extra, _meta: { "io.modelcontextprotocol/protocolVersion": VERSION, "io.modelcontextprotocol/clientCapabilities": opts.capabilities ?? { elicitation: {}, sampling: {} }, ...opts.meta } };
    const res = await fetch(new URL("/mcp/s/conf-http", tg.http.url), {
      method: "POST",
      headers: { authorization: `Bearer ${opts.token ?? token}`, accept: "application/json, text/event-stream", "content-type": "application/json", "mcp-protocol-version": VERSION, "mcp-method": "tools/call", "mcp-name": name },
      body: JSON.stringify({ jsonrpc: "2.0", id, method: "tools/call", params }),
    });
    const text = await res.text();
    const frames = (res.headers.get("content-type") ?? "").includes("text/event-stream") ? text.split("\n\n").map((e) => /^data: (.*)$/m.exec(e)?.[1]).filter(Boolean).map((d) => JSON.parse(d!) as Answer & { method?: string }) : [JSON.parse(text) as Answer & { method?: string }];
    return { status: res.status, answer: frames.find((m) => m.id === id) ?? {}, id, frames };
  }
  const audited = (tool: string) => db.auditEvent.count({ where: { action: "tool.called", toolName: `conf-http__${tool}` } });

  beforeAll(async () => {
    await truncateAll(db);
    tg = await startTestGateway();
    upstream = await startConformanceServerHttp();
    const admin = userContext(await insertUser(db, { role: "ADMIN" }));
    const { server } = await tg.gateway.registry.register(admin, { slug: "conf-http", name: "Conformance fixture", transport: "http", url: upstream.url });
    if (server.status !== "HEALTHY") throw new Error(server.lastError ?? "the fixture did not start");
    token = (await userWithToken(db)).token;
    otherToken = (await userWithToken(db)).token;
  }, 60_000);

  afterAll(async () => {
    await tg?.close();
    await upstream?.close();
    await db.$disconnect();
  });

  const elicitArgs = { message: "Who are you?" };
  const accept = { action: "accept", content: { username: "alice", email: "alice@example.com" } };

  async function inputRequired(tool = "test_elicitation", args: Record<string, unknown> = elicitArgs) {
    const first = await call(tool, args);
    expect(first.status).toBe(200);
    expect(first.answer.result).toMatchObject({ resultType: "input_required", requestState: expect.any(String) as unknown });
    const [[key, request]] = Object.entries(first.answer.result!.inputRequests!) as [[string, { method: string; params: Record<string, unknown> }]];
    return { key, request, state: first.answer.result!.requestState! };
  }

  it("elicitation: input_required, then the retry with the answer completes the same upstream call, audited once", async () => {
    const before = await audited("test_elicitation");
    const { key, request, state } = await inputRequired();
    expect(request).toMatchObject({ method: "elicitation/create", params: { message: "Who are you?" } });
    const done = await call("test_elicitation", elicitArgs, { extra: { inputResponses: { [key]: accept }, requestState: state } });
    expect(done.status).toBe(200);
    expect(done.answer).toMatchObject({ id: done.id, result: { resultType: "complete" } });
    expect(firstText(done.answer.result)).toContain('"username":"alice"');
    // The test gateway commits a call's outcome before its answer (AUDIT_OUTCOME=with_answer).
    expect(await audited("test_elicitation")).toBe(before + 1);
  });

  it("sampling: the same round trip", async () => {
    const { key, request, state } = await inputRequired("test_sampling", { prompt: "2+2?" });
    expect(request.method).toBe("sampling/createMessage");
    const done = await call("test_sampling", { prompt: "2+2?" }, { extra: { inputResponses: { [key]: { role: "assistant", content: { type: "text", text: "4" }, model: "m" } }, requestState: state } });
    expect(firstText(done.answer.result)).toBe("LLM response: 4");
  });

  it("a retry without the answer is asked again, under a new requestState", async () => {
    const { key, state } = await inputRequired();
    const again = await call("test_elicitation", elicitArgs, { extra: { requestState: state } });
    expect(again.answer.result).toMatchObject({ resultType: "input_required", inputRequests: { [key]: { method: "elicitation/create" } } });
    expect(again.answer.result!.requestState).not.toBe(state);
    const done = await call("test_elicitation", elicitArgs, { extra: { inputResponses: { [key]: accept }, requestState: again.answer.result!.requestState } });
    expect(done.answer.result?.resultType).toBe("complete");
  });

  it.each<[string, (s: string) => string, Record<string, unknown>, string | undefined, RegExp]>([
    ["an altered signature", (s) => `${s.slice(0, -2)}${s.endsWith("AA") ? "BB" : "AA"}`, elicitArgs, undefined, /integrity/],
    ["an altered payload", (s) => `${Buffer.from(JSON.stringify({ c: "x", b: "y", x: 9e15 })).toString("base64url")}.${s.split(".")[1]}`, elicitArgs, undefined, /integrity/],
    ["other arguments", (s) => s, { message: "Someone else?" }, undefined, /another request or agent session/],
    ["another agent session", (s) => s, elicitArgs, "other", /another request or agent session/],
    ["garbage", () => "not-a-state", elicitArgs, undefined, /not one this gateway issued/],
  ])("a requestState with %s is refused (400, -32602) and the held call still completes with the right one", async (_what, alter, args, who, message) => {
    const { key, state } = await inputRequired();
    const refused = await call("test_elicitation", args, { extra: { inputResponses: { [key]: accept }, requestState: alter(state) }, ...(who && { token: otherToken }) });
    expect(refused.status).toBe(400);
    expect(refused.answer).toMatchObject({ id: refused.id, error: { code: -32602, message: expect.stringMatching(message) as unknown } });
    const done = await call("test_elicitation", elicitArgs, { extra: { inputResponses: { [key]: accept }, requestState: state } });
    expect(done.answer.result?.resultType).toBe("complete");
  });

  it("a replayed requestState is refused", async () => {
    const { key, state } = await inputRequired();
    const retry = { extra: { inputResponses: { [key]: accept }, requestState: state } };
    expect((await call("test_elicitation", elicitArgs, retry)).answer.result?.resultType).toBe("complete");
    const replay = await call("test_elicitation", elicitArgs, retry);
    expect(replay.status).toBe(400);
    expect(replay.answer.error).toMatchObject({ code: -32602, message: expect.stringMatching(/already used/) as unknown });
  });

  it("a client that did not declare elicitation gets -32021 naming it (400)", async () => {
    const { status, answer, id } = await call("test_elicitation", elicitArgs, { capabilities: {} });
    expect(status).toBe(400);
    expect(answer).toMatchObject({ id, error: { code: -32021, data: { requiredCapabilities: { elicitation: {} } } } });
  });

  it.each<[string, string | undefined, number]>([
    ["no level set: none", undefined, 0],
    ["info: all three", "info", 3],
    ["error: none of the info ones", "error", 0],
  ])("log messages reach a 2026 request only at the level it set in _meta (%s)", async (_what, level, count) => {
    const { answer, frames } = await call("test_tool_with_logging", {}, { meta: level ? { "io.modelcontextprotocol/logLevel": level } : {} });
    expect(answer.result?.resultType).toBe("complete");
    expect(frames.filter((f) => f.method === "notifications/message")).toHaveLength(count);
  });

  it("real clients at once: a v2 client's elicitation and sampling through MRTR, a v1 client's as 2025 requests", async () => {
    const url = new URL("/mcp/s/conf-http", tg.http.url);
    const requestInit = { headers: { authorization: `Bearer ${token}` } };
    const v2 = new ClientV2({ name: "v2", version: "2.4.0" }, { capabilities: { elicitation: {}, sampling: {} }, versionNegotiation: { mode: "auto" } });
    v2.setRequestHandler("elicitation/create", () => ({ action: "accept", content: { username: "v2-user", email: "v2@example.com" } }));
    v2.setRequestHandler("sampling/createMessage", () => ({ role: "assistant", content: { type: "text", text: "from v2" }, model: "m" }));
    const v1 = new ClientV1({ name: "v1", version: "1.32" }, { capabilities: { elicitation: {}, sampling: {} } });
    v1.setRequestHandler(ElicitRequestSchema, () => ({ action: "accept", content: { username: "v1-user", email: "v1@example.com" } }));
    v1.setRequestHandler(CreateMessageRequestSchema, () => ({ role: "assistant", content: { type: "text", text: "from v1" }, model: "m" }));
    await Promise.all([v2.connect(new TransportV2(url, { requestInit })), v1.connect(new TransportV1(url, { requestInit }))]);
    try {
      expect(v2.getNegotiatedProtocolVersion()).toBe(VERSION);
      // Each 2026 call in flight holds an upstream session of its own (stateless-leases.ts), within the agent
      // session's limit of upstream processes (4 in tests): two v2 calls and the v1 session at once.
      const [e2, s2, e1, s1] = await Promise.all([
        v2.callTool({ name: "test_elicitation", arguments: elicitArgs }),
        v2.callTool({ name: "test_sampling", arguments: { prompt: "hi" } }),
        v1.callTool({ name: "test_elicitation", arguments: elicitArgs }),
        v1.callTool({ name: "test_sampling", arguments: { prompt: "hi" } }),
      ]);
      const [prompt, resource] = await Promise.all([v2.getPrompt({ name: "test_simple_prompt" }), v2.readResource({ uri: "test://static-text" })]);
      expect(firstText(e2)).toContain("v2-user");
      expect(firstText(s2)).toBe("LLM response: from v2");
      expect(firstText(e1)).toContain("v1-user");
      expect(firstText(s1)).toBe("LLM response: from v1");
      expect(prompt.messages.length).toBeGreaterThan(0);
      expect(resource.contents.length).toBeGreaterThan(0);
    } finally {
      await Promise.all([v2.close(), v1.close()]);
    }
  });

  it("concurrent calls of one agent session each get their own input request and their own result", async () => {
    const asks = ["A?", "B?", "C?"];
    const held = await Promise.all(asks.map((message) => inputRequired("test_elicitation", { message })));
    expect(held.map((h) => h.request.params.message)).toEqual(asks);
    const done = await Promise.all(
      held.map((h, i) => call("test_elicitation", { message: asks[i] }, { extra: { inputResponses: { [h.key]: { action: "accept", content: { username: `user${i}`, email: "x@example.com" } } }, requestState: h.state } })),
    );
    done.forEach((d, i) => expect(firstText(d.answer.result)).toContain(`"username":"user${i}"`));
  });

  it.each<[string, Record<string, unknown>, number, unknown]>([
    ["a form-only client", { elicitation: {} }, 400, { error: { code: -32021, data: { requiredCapabilities: { elicitation: { url: {} } } } } }],
    ["a client with URL mode", { elicitation: { url: {} } }, 200, { result: { resultType: "input_required" } }],
  ])("URL-mode elicitation needs elicitation.url: %s", async (_what, capabilities, status, shape) => {
    const res = await call("test_url_elicitation", {}, { capabilities });
    expect(res.status).toBe(status);
    expect(res.answer).toMatchObject(shape as object);
  });

  it("a 2025 upstream's ping to the client during a call is answered by the gateway", async () => {
    const res = await call("test_ping_client", {});
    expect(res.answer.result).toMatchObject({ resultType: "complete" });
    expect(firstText(res.answer.result)).toBe("the client answered a ping");
  });

  // Roots are context the upstream asks for on its own (server-everything 350 ms after initialize, on whichever
  // call is in flight): a client without roots does not lose the call over it.
  it("the upstream asks for roots mid-call: a client without roots gets the call's answer, the upstream hears it has none", async () => {
    const before = await audited("test_list_roots");
    const res = await call("test_list_roots", {}, { capabilities: { elicitation: {} } });
    expect([res.status, res.answer.result?.resultType]).toEqual([200, "complete"]);
    expect(firstText(res.answer.result)).toMatch(/^no roots: .*The client did not declare roots/);
    expect(await audited("test_list_roots")).toBe(before + 1);
  });

  it("the upstream asks for roots mid-call: a client with roots is asked (input_required), and its retry gives them", async () => {
    const first = await call("test_list_roots", {}, { capabilities: { roots: {} } });
    expect(first.answer.result).toMatchObject({ resultType: "input_required" });
    const [[key, request]] = Object.entries(first.answer.result!.inputRequests!) as [[string, { method: string; params: Record<string, unknown> }]];
    expect(request.method).toBe("roots/list");
    const roots = { roots: [{ uri: "file:///work/project", name: "project" }] };
    const done = await call("test_list_roots", {}, { capabilities: { roots: {} }, extra: { inputResponses: { [key]: roots }, requestState: first.answer.result!.requestState } });
    expect(firstText(done.answer.result)).toBe("roots: file:///work/project");
  });

  it("two retries racing with one requestState: exactly one continues the call, the other is refused", async () => {
    const { key, state } = await inputRequired();
    const retry = { extra: { inputResponses: { [key]: accept }, requestState: state } };
    const answers = await Promise.all([call("test_elicitation", elicitArgs, retry), call("test_elicitation", elicitArgs, retry)]);
    expect(answers.map((a) => a.status).sort()).toEqual([200, 400]);
    expect(answers.find((a) => a.status === 200)!.answer.result?.resultType).toBe("complete");
    expect(answers.find((a) => a.status === 400)!.answer.error).toMatchObject({ code: -32602, message: expect.stringMatching(/already used/) as unknown });
  });

  it("two rounds: the upstream's second question comes after the first answer, and the call completes with both", async () => {
    const first = await call("test_elicitation_twice", {});
    const [k1, r1] = Object.entries(first.answer.result!.inputRequests!)[0]!;
    expect(r1.params.message).toBe("First?");
    const second = await call("test_elicitation_twice", {}, { extra: { inputResponses: { [k1]: { action: "accept", content: { answer: "one" } } }, requestState: first.answer.result!.requestState } });
    expect(second.answer.result?.resultType).toBe("input_required");
    const [k2, r2] = Object.entries(second.answer.result!.inputRequests!)[0]!;
    expect(r2.params.message).toBe("Second, after one?");
    const done = await call("test_elicitation_twice", {}, { extra: { inputResponses: { [k2]: { action: "accept", content: { answer: "two" } } }, requestState: second.answer.result!.requestState } });
    expect(firstText(done.answer.result)).toBe("answers: one, two");
  });
});
