// /mcp/s/<slug> over real HTTP with the MCP SDK client, in front of real upstreams (server-everything over
// stdio, the misbehaving fixture): original names, resources, prompts, completions, logging, progress,
// server-to-client requests relayed both ways (also when the agent's reply reaches another gateway process),
// cancellation, and the HTTP-level answers. Plus cancellation and disabled tools on /mcp.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import {
  CreateMessageRequestSchema,
  ElicitRequestSchema,
  ListRootsRequestSchema,
  LoggingMessageNotificationSchema,
} from "@modelcontextprotocol/sdk/types.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RequestContext } from "../context";
import { insertUser, userContext } from "../test/contexts";
import {
  connectAgent,
  errorMeta,
  everythingServer,
  fixtureEvents,
  firstText,
  misbehavingServer,
  removeTempDirs,
  startTestGateway,
  tempDir,
  userWithToken,
  waitUntil,
  type Agent,
  type TestGateway,
} from "../test/gateway-harness";
import { createTestDb, truncateAll } from "../test/test-db";

type Relayed = { sampling: number; elicitation: number; roots: number };

describe("/mcp/s/<slug> transparent endpoint", () => {
  const db = createTestDb();
  let a: TestGateway;
  let b: TestGateway;
  let admin: RequestContext;
  let token = "";
  let hangDir = "";
  const clients: Client[] = [];
  const agents: Agent[] = [];

  /**
   * A capable agent (sampling, elicitation, roots) on /mcp/s/<slug>. `repliesTo` sends the agent's POSTs that
   * carry only replies to another gateway process, as a load balancer might.
   */
  async function transparentAgent(slug: string, opts: { repliesTo?: TestGateway } = {}) {
    const relayed: Relayed = { sampling: 0, elicitation: 0, roots: 0 };
    const url = new URL(`/mcp/s/${slug}`, a.http.url);
    const fetchVia: typeof fetch = async (input, init) => {
      const body = typeof init?.body === "string" ? init.body : "";
      if (opts.repliesTo && body && !body.includes('"method"')) {
        return fetch(new URL(`/mcp/s/${slug}`, opts.repliesTo.http.url), init);
      }
      return fetch(input, init);
    };
    const transport = new StreamableHTTPClientTransport(url, { requestInit: { headers: { authorization: `Bearer ${token}` } }, fetch: fetchVia });
    const client = new Client({ name: "transparent-agent", version: "1.0.0" }, { capabilities: { sampling: {}, elicitation: {}, roots: { listChanged: true } } });
    client.setRequestHandler(CreateMessageRequestSchema, (req) => {
      relayed.sampling++;
      const first = req.params.messages[0]?.content;
      const asked = first && "text" in first ? String(first.text) : "";
      return { role: "assistant", model: "test-model", content: { type: "text", text: `sampled: ${asked}` } };
    });
    client.setRequestHandler(ElicitRequestSchema, () => {
      relayed.elicitation++;
      return { action: "accept", content: { name: "Ada", check: true } };
    });
    client.setRequestHandler(ListRootsRequestSchema, () => {
      relayed.roots++;
      return { roots: [{ uri: "file:///srv/agent-root", name: "agent root" }] };
    });
    await client.connect(transport);
    clients.push(client);
    return { client, transport, relayed, sessionId: transport.sessionId ?? "" };
  }

  beforeAll(async () => {
    await truncateAll(db);
    a = await startTestGateway();
    b = await startTestGateway();
    admin = userContext(await insertUser(db, { role: "ADMIN" }));
    token = (await userWithToken(db)).token;
    hangDir = await tempDir("transparent-hang");
    for (const input of [everythingServer(), misbehavingServer(hangDir, { slug: "hangs" })]) {
      const { server } = await a.gateway.registry.register(admin, input);
      if (server.status !== "HEALTHY") throw new Error(`${server.slug} is ${server.status}: ${server.lastError ?? ""}`);
    }
  });

  afterAll(async () => {
    for (const c of clients) await c.close().catch(() => undefined);
    for (const ag of agents) await ag.close();
    await b?.close();
    await a?.close();
    await db.$disconnect();
    await removeTempDirs();
  });

  it("initialize – the upstream's own server info and capabilities, a session row for the endpoint", async () => {
    const { client, sessionId } = await transparentAgent("everything");
    expect(client.getServerVersion()?.name).not.toBe("portcullis");
    expect(client.getServerVersion()?.name).toMatch(/everything/i);
    const caps = client.getServerCapabilities();
    expect(caps?.tools?.listChanged).toBe(true);
    expect(caps?.resources).toBeTruthy();
    expect(caps?.prompts).toBeTruthy();
    const row = await db.mcpSession.findUniqueOrThrow({ where: { id: sessionId } });
    expect(row.endpoint).toBe("mcp/s/everything");
  });

  it("GET /api/v1/servers/{slug}/logs – a transparent session's process stderr is there, marked with its session, ended when the session ends", async () => {
    const { client, transport, sessionId } = await transparentAgent("everything");
    await client.listTools();
    const tag = sessionId.slice(0, 8);
    const ofSession = async () => (await a.gateway.registry.logs("everything")).sessions.filter((p) => p.session === tag);
    const running = await waitUntil("the session process's start-up line in the server's logs", async () => {
      const mine = await ofSession();
      return mine[0]?.lines.includes("Starting default (STDIO) server...") ? mine : undefined;
    });
    expect(running).toHaveLength(1);
    expect(running[0]!.endedAt).toBeNull();
    // The pooled process's log is still its own: the session's lines are not mixed into it.
    const logs = await a.gateway.registry.logs("everything");
    expect(logs.held).toBe(true);
    expect(logs.current).not.toBeNull();
    // Another process (b) holds no session of this agent: its answer has none of it.
    expect((await b.gateway.registry.logs("everything")).sessions.filter((p) => p.session === tag)).toEqual([]);

    await transport.terminateSession();
    const ended = await waitUntil("the session's process ended in the logs", async () => {
      const mine = await ofSession();
      return mine[0]?.endedAt ? mine : undefined;
    });
    expect(ended[0]!.lines).toContain("Starting default (STDIO) server...");
    expect(ended[0]!.endReason).toBeTruthy();
  });

  it("tools – original names, calls through the pipeline (validated, audited as endpoint `server`)", async () => {
    const { client } = await transparentAgent("everything");
    const names = (await client.listTools()).tools.map((t) => t.name);
    expect(names).toEqual(expect.arrayContaining(["echo", "get-sum", "trigger-sampling-request"]));
    expect(names.some((n) => n.includes("__"))).toBe(false);
    const r = await client.callTool({ name: "echo", arguments: { message: "through the relay" } });
    expect(firstText(r)).toContain("through the relay");
    const bad = await client.callTool({ name: "get-sum", arguments: { a: "one", b: 2 } });
    expect(errorMeta(bad).code).toBe("invalid_arguments");
    const audit = await db.auditEvent.findMany({ where: { action: "tool.called", endpoint: "server", toolName: { in: ["everything__echo", "everything__get-sum"] } } });
    expect(audit).toHaveLength(2);
    expect(audit.find((e) => e.toolName === "everything__echo")?.status).toBe("ok");
    expect(audit.find((e) => e.toolName === "everything__get-sum")?.errorCode).toBe("invalid_arguments");
  });

  it("a row cap lowers the argument the upstream receives, as on /mcp (the relay forwards the checked arguments)", async () => {
    const rule = await a.gateway.policy.createRule(admin, "everything__get-sum", { kind: "row_cap", argument: "a", max: 5 });
    try {
      const { client } = await transparentAgent("everything");
      const r = await client.callTool({ name: "get-sum", arguments: { a: 100, b: 1 } });
      expect(firstText(r)).toBe("The sum of 5 and 1 is 6.");
    } finally {
      await a.gateway.policy.deleteRule(admin, "everything__get-sum", rule.id);
    }
  });

  it("sampling, elicitation and roots requests of the upstream reach the agent and its answers come back", async () => {
    const { client, relayed } = await transparentAgent("everything");
    const sampled = await client.callTool({ name: "trigger-sampling-request", arguments: { prompt: "hello", maxTokens: 10 } });
    expect(JSON.stringify(sampled)).toContain("sampled: ");
    expect(relayed.sampling).toBe(1);
    const elicited = await client.callTool({ name: "trigger-elicitation-request", arguments: {} });
    expect(JSON.stringify(elicited)).toContain("Ada");
    expect(relayed.elicitation).toBe(1);
    const roots = await client.callTool({ name: "get-roots-list", arguments: {} });
    expect(JSON.stringify(roots)).toContain("file:///srv/agent-root");
    expect(relayed.roots).toBeGreaterThanOrEqual(1);
  });

  it("a relayed request is answered when the agent's reply reaches another gateway process", async () => {
    const { client, relayed } = await transparentAgent("everything", { repliesTo: b });
    const sampled = await client.callTool({ name: "trigger-sampling-request", arguments: { prompt: "across processes", maxTokens: 10 } });
    expect(JSON.stringify(sampled)).toContain("sampled: ");
    expect(JSON.stringify(sampled)).toContain("across processes");
    expect(relayed.sampling).toBe(1);
  });

  it("resources, templates, subscriptions, prompts, completions and logging are relayed; reads are audited", async () => {
    const { client, sessionId } = await transparentAgent("everything");
    const { resources } = await client.listResources();
    expect(resources.length).toBeGreaterThan(0);
    const first = resources[0]!;
    const read = await client.readResource({ uri: first.uri });
    expect(read.contents[0]?.uri).toBe(first.uri);
    const { resourceTemplates } = await client.listResourceTemplates();
    expect(resourceTemplates.length).toBeGreaterThan(0);

    await client.subscribeResource({ uri: first.uri });
    await client.setLoggingLevel("debug");
    let row = await db.mcpSession.findUniqueOrThrow({ where: { id: sessionId } });
    expect(row.state).toEqual({ subscriptions: [first.uri], logLevel: "debug" });
    await client.unsubscribeResource({ uri: first.uri });
    row = await db.mcpSession.findUniqueOrThrow({ where: { id: sessionId } });
    expect(row.state).toMatchObject({ subscriptions: [] });

    const { prompts } = await client.listPrompts();
    const names = prompts.map((p) => p.name);
    expect(names.some((n) => n.includes("__"))).toBe(false);
    const simple = prompts.find((p) => !p.arguments?.length)!;
    const got = await client.getPrompt({ name: simple.name });
    expect(got.messages.length).toBeGreaterThan(0);

    const withCompletion = prompts.find((p) => p.name.includes("complet"));
    if (withCompletion?.arguments?.[0]) {
      const completion = await client.complete({ ref: { type: "ref/prompt", name: withCompletion.name }, argument: { name: withCompletion.arguments[0].name, value: "" } });
      expect(Array.isArray(completion.completion.values)).toBe(true);
    }

    const audit = await db.auditEvent.findMany({ where: { endpoint: "mcp/s/everything", action: { in: ["resource.read", "prompt.fetched"] } } });
    expect(audit.map((e) => e.action).sort()).toEqual(["prompt.fetched", "resource.read"]);
    expect(audit.every((e) => e.status === "ok" && e.serverSlug === "everything")).toBe(true);
  });

  it("progress notifications of a long call reach the agent with its own progress token", async () => {
    const { client } = await transparentAgent("everything");
    const seen: number[] = [];
    const r = await client.callTool({ name: "trigger-long-running-operation", arguments: { duration: 1, steps: 3 } }, undefined, {
      onprogress: (p) => seen.push(p.progress),
    });
    expect(r.isError ?? false, firstText(r)).toBe(false);
    expect(seen.length).toBeGreaterThanOrEqual(2);
  });

  it("logging notifications of the upstream reach the agent", async () => {
    const { client } = await transparentAgent("everything");
    const logs: string[] = [];
    client.setNotificationHandler(LoggingMessageNotificationSchema, (n) => void logs.push(JSON.stringify(n.params.data)));
    await client.setLoggingLevel("debug");
    await client.callTool({ name: "toggle-simulated-logging", arguments: {} });
    await waitUntil("a log message relayed from the upstream", () => logs.length > 0 || undefined, 20_000);
    await client.callTool({ name: "toggle-simulated-logging", arguments: {} });
    expect(logs.length).toBeGreaterThan(0);
  });

  it("the session continues on another gateway process, which opens its own upstream session", async () => {
    const first = await transparentAgent("everything");
    await first.client.setLoggingLevel("warning");
    const transport = new StreamableHTTPClientTransport(new URL("/mcp/s/everything", b.http.url), {
      requestInit: { headers: { authorization: `Bearer ${token}` } },
      sessionId: first.sessionId,
    });
    const onB = new Client({ name: "transparent-agent", version: "1.0.0" });
    await onB.connect(transport);
    clients.push(onB);
    const r = await onB.callTool({ name: "echo", arguments: { message: "on b" } });
    expect(firstText(r)).toContain("on b");
  });

  it("an agent's cancellation stops the upstream call on /mcp/s and on /mcp, even when it reaches another process", async () => {
    // Transparent endpoint, cancellation on the same process.
    const { client } = await transparentAgent("hangs");
    const ac = new AbortController();
    const call = client.callTool({ name: "hang", arguments: {} }, undefined, { signal: ac.signal });
    await waitUntil("the upstream to start the call", () => fixtureEvents(hangDir).find((e) => e.event === "call" && e.tool === "hang"), 10_000);
    ac.abort("agent gave up");
    await expect(call).rejects.toThrow();
    await waitUntil("notifications/cancelled upstream", () => fixtureEvents(hangDir).filter((e) => e.event === "cancelled").length >= 1 || undefined, 10_000);

    // Aggregate endpoint, the cancellation POST goes to process b while a runs the call.
    const ag = await connectAgent(a.mcpUrl, token);
    agents.push(ag);
    const ac2 = new AbortController();
    const before = fixtureEvents(hangDir).filter((e) => e.event === "call" && e.tool === "hang").length;
    const call2 = ag.client.callTool({ name: "hangs__hang", arguments: {} }, undefined, { signal: ac2.signal });
    await waitUntil("the second call upstream", () => fixtureEvents(hangDir).filter((e) => e.event === "call" && e.tool === "hang").length > before || undefined, 10_000);
    const cancel = await fetch(new URL("/mcp", b.http.url), {
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/json, text/event-stream", authorization: `Bearer ${token}`, "mcp-session-id": ag.sessionId, "mcp-protocol-version": "2025-06-18" },
      body: JSON.stringify({ jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: 1, reason: "agent gave up" } }),
    });
    expect(cancel.status).toBe(202);
    await waitUntil("the cancellation to reach the upstream", () => fixtureEvents(hangDir).filter((e) => e.event === "cancelled").length >= 2 || undefined, 10_000);
    const cancelled = fixtureEvents(hangDir).filter((e) => e.event === "cancelled").at(-1);
    expect(cancelled?.reason).toContain("agent gave up");
    ac2.abort();
    await call2.catch(() => undefined);
  });

  it("calls the agent cancels on /mcp/s are not upstream failures: after 5 in a row (the breaker's threshold) the next call is answered", async () => {
    const { client } = await transparentAgent("hangs");
    const starts = (tag: string) => fixtureEvents(hangDir).filter((e) => e.event === "slow.start" && (e.args as { tag?: string }).tag === tag).length;
    for (let i = 0; i < 5; i++) {
      const tag = `transparent-cancel-${String(i)}`;
      const ac = new AbortController();
      let answered: string | undefined;
      const call = client.callTool({ name: "slow_write", arguments: { ms: 0, tag, until: `${hangDir}/${tag}.never` } }, undefined, { signal: ac.signal }).then((r) => (answered = firstText(r)));
      // An open circuit answers at once, without asking the upstream.
      const outcome = await waitUntil("the upstream to start the call (or the gateway to answer)", () => (answered !== undefined ? `answered: ${answered}` : starts(tag) === 1 && "started"));
      expect(outcome, tag).toBe("started");
      ac.abort(new Error("the agent changed its mind"));
      await expect(call).rejects.toThrow();
      // Its audit event is written once the pipeline is done with it, the breaker's verdict included.
      const audit = await waitUntil("the call's audit event", async () =>
        (await db.auditEvent.findMany({ where: { action: "tool.called", endpoint: "server", toolName: "hangs__slow_write" } })).find((e) => (e.arguments as { tag?: string } | null)?.tag === tag),
      );
      expect(audit).toMatchObject({ status: "error", errorCode: "canceled" });
    }
    const after = await client.callTool({ name: "slow_write", arguments: { ms: 0, tag: "transparent-after" } });
    expect(after.isError ?? false, firstText(after)).toBe(false);
    expect(starts("transparent-after")).toBe(1);
  });

  it("a call to a disabled tool is refused with tool_disabled and audited, on both endpoints", async () => {
    await a.gateway.registry.updateTool(admin, "everything__get-sum", { enabled: false });
    const ag = await connectAgent(a.mcpUrl, token);
    agents.push(ag);
    const r = await ag.client.callTool({ name: "everything__get-sum", arguments: { a: 1, b: 2 } });
    expect(errorMeta(r).code).toBe("tool_disabled");
    const { client } = await transparentAgent("everything");
    expect((await client.listTools()).tools.map((t) => t.name)).not.toContain("get-sum");
    const t = await client.callTool({ name: "get-sum", arguments: { a: 1, b: 2 } });
    expect(errorMeta(t).code).toBe("tool_disabled");
    const audit = await db.auditEvent.findMany({ where: { toolName: "everything__get-sum", errorCode: "tool_disabled" } });
    expect(audit.map((e) => [e.endpoint, e.status, e.decision]).sort()).toEqual([
      ["mcp", "denied", "deny"],
      ["server", "denied", "deny"],
    ]);
    await a.gateway.registry.updateTool(admin, "everything__get-sum", { enabled: true });
  });

  it("/mcp aggregates prompts (<server>__<name>) and resources (by URI), routes reads and completions, and audits them", async () => {
    const ag = await connectAgent(a.mcpUrl, token);
    agents.push(ag);
    const { prompts } = await ag.client.listPrompts();
    expect(prompts.length).toBeGreaterThan(0);
    expect(prompts.every((p) => p.name.startsWith("everything__"))).toBe(true);
    const simple = prompts.find((p) => !p.arguments?.length)!;
    expect((await ag.client.getPrompt({ name: simple.name })).messages.length).toBeGreaterThan(0);
    await expect(ag.client.getPrompt({ name: "everything__no-such-prompt" })).rejects.toThrow(/Unknown prompt/);

    const { resources } = await ag.client.listResources();
    const first = resources[0]!;
    expect(first.name.startsWith("everything__")).toBe(true);
    expect((await ag.client.readResource({ uri: first.uri })).contents[0]?.uri).toBe(first.uri);
    const { resourceTemplates } = await ag.client.listResourceTemplates();
    const template = resourceTemplates[0]!;
    const concrete = template.uriTemplate.replace(/\{[^}]+\}/g, "1");
    expect((await ag.client.readResource({ uri: concrete })).contents.length).toBeGreaterThan(0);
    await expect(ag.client.readResource({ uri: "nowhere://x" })).rejects.toThrow(/Resource not found/);

    const withArgs = prompts.find((p) => p.arguments?.length && p.name.includes("complet"));
    if (withArgs) {
      const c = await ag.client.complete({ ref: { type: "ref/prompt", name: withArgs.name }, argument: { name: withArgs.arguments![0]!.name, value: "" } });
      expect(Array.isArray(c.completion.values)).toBe(true);
    }
    const audit = await db.auditEvent.findMany({ where: { endpoint: "mcp", action: { in: ["resource.read", "prompt.fetched"] } } });
    expect(audit.filter((e) => e.action === "resource.read" && e.status === "ok").length).toBe(2);
    expect(audit.filter((e) => e.action === "prompt.fetched" && e.status === "ok").length).toBe(1);
  });

  it("a POST stream lost mid-call is resumed with Last-Event-ID on another gateway process, from where it broke off", async () => {
    const { sessionId } = await transparentAgent("everything");
    const headers = { "content-type": "application/json", accept: "application/json, text/event-stream", authorization: `Bearer ${token}`, "mcp-session-id": sessionId, "mcp-protocol-version": "2025-11-25" };
    const ac = new AbortController();
    const res = await fetch(new URL("/mcp/s/everything", a.http.url), {
      method: "POST",
      headers,
      body: JSON.stringify({ jsonrpc: "2.0", id: 7, method: "tools/call", params: { name: "trigger-long-running-operation", arguments: { duration: 2, steps: 4 }, _meta: { progressToken: "resume-me" } } }),
      signal: ac.signal,
    });
    expect(res.headers.get("content-type")).toContain("text/event-stream");
    // Read until the first progress event, then drop the connection.
    const reader = res.body!.pipeThrough(new TextDecoderStream()).getReader();
    let seen = "";
    while (!seen.includes("notifications/progress")) seen += (await reader.read()).value ?? "";
    ac.abort();
    expect(seen).toMatch(/^id: \d+\nretry: \d+\ndata: \n\n/); // the priming event comes first
    const ids = [...seen.matchAll(/^id: (\d+)$/gm)].map((m) => m[1]!);
    const lastEventId = ids.at(-1)!;

    const resumed = await fetch(new URL("/mcp/s/everything", b.http.url), { headers: { ...headers, accept: "text/event-stream", "last-event-id": lastEventId } });
    expect(resumed.status).toBe(200);
    const rest = await resumed.text();
    const events = [...rest.matchAll(/^id: (\d+)\nevent: message\ndata: (.*)$/gm)].map((m) => ({ id: m[1]!, message: JSON.parse(m[2]!) as { id?: number; method?: string; result?: unknown } }));
    expect(events.every((e) => BigInt(e.id) > BigInt(lastEventId))).toBe(true);
    expect(events.some((e) => e.message.method === "notifications/progress")).toBe(true);
    expect(events.at(-1)?.message.id).toBe(7);
    expect(Array.isArray((events.at(-1)?.message.result as { content?: unknown } | undefined)?.content)).toBe(true);

    const unknown = await fetch(new URL("/mcp/s/everything", b.http.url), { headers: { ...headers, accept: "text/event-stream", "last-event-id": "999999999" } });
    expect(unknown.status).toBe(404);
    // Another session of the same user cannot read this stream.
    const other = await transparentAgent("everything");
    const foreign = await fetch(new URL("/mcp/s/everything", b.http.url), {
      headers: { ...headers, "mcp-session-id": other.sessionId, accept: "text/event-stream", "last-event-id": lastEventId },
    });
    expect(foreign.status).toBe(404);
  });

  it("HTTP answers: unknown server 404, foreign Origin 403, no token 401", async () => {
    const init = { jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "raw", version: "1" } } };
    const headers = { "content-type": "application/json", accept: "application/json, text/event-stream", authorization: `Bearer ${token}` };
    const unknown = await fetch(new URL("/mcp/s/nope", a.http.url), { method: "POST", headers, body: JSON.stringify(init) });
    expect(unknown.status).toBe(404);
    expect(((await unknown.json()) as { error: { message: string } }).error.message).toContain("nope");
    const foreign = await fetch(new URL("/mcp/s/everything", a.http.url), { method: "POST", headers: { ...headers, origin: "http://evil.example" }, body: JSON.stringify(init) });
    expect(foreign.status).toBe(403);
    const anonymous = await fetch(new URL("/mcp/s/everything", a.http.url), { method: "POST", headers: { "content-type": "application/json", accept: "application/json, text/event-stream" }, body: JSON.stringify(init) });
    expect(anonymous.status).toBe(401);
  });
});
