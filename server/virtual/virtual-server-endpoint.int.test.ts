// /mcp/v/<name> over real HTTP with the MCP SDK client: a virtual server composed from two upstream fixtures,
// renamed tools (the upstream sees its own name), overridden descriptions, its instructions, the pipeline's
// policies (a HIGH-tier member is held for approval, a rate limit, the session's whitelist), audit rows with the
// virtual and the real name, and agent sessions scoped to a virtual server refused everywhere else.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RequestContext } from "../context";
import { createAgentSession } from "../sessions/agent-sessions";
import { userContext } from "../test/contexts";
import { agentToken, connectAgent, errorMeta, fixtureEvents, firstText, misbehavingServer, setUpGatewayTest, tempDir, waitUntil, type Agent, type GatewayTestEnv, type TestGateway } from "../test/gateway-harness";
import { createTestDb } from "../test/test-db";

const MEMBERS = [
  { kind: "tool", server: "alpha", name: "counted", exposedName: "record", description: "Records one name in the desk's ledger." },
  { kind: "tool", server: "beta", name: "counted", exposedName: "record_b" },
  { kind: "tool", server: "alpha", name: "whoami" },
  { kind: "tool", server: "beta", name: "whoami", exposedName: "beta_whoami" },
  { kind: "tool", server: "beta", name: "slow_write" },
  { kind: "tool", server: "alpha", name: "fail" },
  { kind: "prompt", server: "alpha", name: "greet", exposedName: "hello" },
  { kind: "resource", server: "alpha", name: "fixture://alpha/small", description: "A small text." },
] as const;

// The agent's own whitelist leaves out alpha__fail: a member the session may not use is neither listed nor callable.
const WHITELIST = ["alpha__counted", "beta__counted", "alpha__whoami", "beta__whoami", "beta__slow_write", "alpha__greet"];

describe("/mcp/v/<name>: virtual servers over Streamable HTTP", () => {
  const db = createTestDb();
  let env: GatewayTestEnv;
  let a: TestGateway;
  let admin: RequestContext;
  let agent: Agent;
  let alphaDir = "";
  let betaDir = "";
  const url = (path: string) => new URL(path, a.mcpUrl);
  const calls = (dir: string) => fixtureEvents(dir).filter((e) => e.event === "call");

  beforeAll(async () => {
    env = await setUpGatewayTest(db, "virtual-servers", { tasks: { thresholdMs: 5000, sweepIntervalMs: 200, dedupeWindowMs: 0 }, approvals: { ttlMs: 60_000, sweepIntervalMs: 200 } });
    a = env.gateways[0]!;
    ({ admin } = env);
    [alphaDir, betaDir] = [await tempDir("vs-alpha"), await tempDir("vs-beta")];
    for (const spec of [misbehavingServer(alphaDir, { slug: "alpha", offerings: true }), misbehavingServer(betaDir, { slug: "beta" })]) {
      const { server } = await a.gateway.registry.register(admin, spec);
      if (server.status !== "HEALTHY") throw new Error(`${server.slug} is ${server.status}: ${server.lastError ?? ""}`);
    }
    await a.gateway.registry.updateTool(admin, "beta__slow_write", { riskTier: "HIGH" });
    await a.gateway.registry.updateTool(admin, "beta__whoami", { rateLimitPerMinute: 1 });
    await a.gateway.virtualServers.create(admin, { name: "desk", instructions: "The help desk's tools.", members: [...MEMBERS] });
    await a.gateway.virtualServers.create(admin, { name: "other", members: [{ kind: "tool", server: "beta", name: "whoami" }] });
    const user = (await db.agentSession.findFirstOrThrow({ include: { user: true } })).user;
    const token = await agentToken(db, user, { tools: WHITELIST });
    agent = await connectAgent(url("/mcp/v/desk"), token);
    env.agents.push(agent);
  });

  afterAll(async () => {
    await env?.close();
  });

  it("lists the members the session may use under their served names, with overridden descriptions and the server's instructions", async () => {
    const tools = (await agent.client.listTools()).tools;
    const upstream = tools.map((t) => t.name).filter((n) => !["get_task_status", "get_task_result", "cancel_task", "list_my_tasks", "request_approval", "get_approval_status"].includes(n));
    expect(upstream.sort()).toEqual(["beta_whoami", "record", "record_b", "slow_write", "whoami"]);
    expect(tools.find((t) => t.name === "record")?.description).toBe("Records one name in the desk's ledger.");
    expect(tools.find((t) => t.name === "record_b")?.description).toBe("Records each call it receives (JSON Schema 2020-12 input).");
    expect(agent.client.getInstructions()).toBe("The help desk's tools.");
  });

  it("a renamed tool: the agent calls the new name, the upstream sees its own, the audit row keeps both", async () => {
    const result = await agent.client.callTool({ name: "record", arguments: { name: "vs-ledger" } });
    expect(result.isError ?? false, firstText(result)).toBe(false);
    expect(calls(alphaDir).filter((e) => (e.args as { name?: string } | undefined)?.name === "vs-ledger")).toEqual([expect.objectContaining({ tool: "counted" })]);
    expect(calls(betaDir).some((e) => (e.args as { name?: string } | undefined)?.name === "vs-ledger")).toBe(false);
    const row = await db.auditEvent.findFirstOrThrow({ where: { action: "tool.called", toolName: "alpha__counted" }, orderBy: { id: "desc" } });
    expect(row).toMatchObject({ endpoint: "virtual", serverSlug: "alpha", status: "ok", details: { virtualServer: "desk", virtualName: "record" } });
  });

  it("the same upstream tool name of two servers, under two names", async () => {
    await agent.client.callTool({ name: "record_b", arguments: { name: "vs-beta" } });
    expect(calls(betaDir).filter((e) => (e.args as { name?: string } | undefined)?.name === "vs-beta")).toEqual([expect.objectContaining({ tool: "counted" })]);
  });

  it("names that are not members are unknown here, gateway names included, and the refusal is audited", async () => {
    // As on /mcp: an unknown name is a JSON-RPC error (-32602) carrying the stable code.
    for (const name of ["alpha__counted", "counted", "alpha__hang"]) {
      await expect(agent.client.callTool({ name, arguments: {} }), name).rejects.toThrow(/\[unknown_tool\] Unknown tool .* on the virtual server desk/);
    }
    const refused = await db.auditEvent.findFirstOrThrow({ where: { action: "tool.called", toolName: "alpha__hang" } });
    expect(refused).toMatchObject({ status: "denied", endpoint: "mcp/v/desk" });
  });

  it("a member outside the session's whitelist is refused tool_not_allowed", async () => {
    const result = await agent.client.callTool({ name: "fail", arguments: {} });
    expect(errorMeta(result).code).toBe("tool_not_allowed");
    const row = await db.auditEvent.findFirstOrThrow({ where: { action: "tool.called", toolName: "alpha__fail" }, orderBy: { id: "desc" } });
    expect(row).toMatchObject({ status: "denied", details: { virtualServer: "desk", virtualName: "fail" } });
  });

  it("a HIGH-tier member is held for an approval", async () => {
    const result = await agent.client.callTool({ name: "slow_write", arguments: { ms: 10, tag: "vs-held" } });
    expect(result.structuredContent).toMatchObject({ status: "AWAITING_APPROVAL", approval_status: "PENDING" });
    const approval = await db.approval.findFirstOrThrow({ orderBy: { createdAt: "desc" } });
    expect(approval.toolName).toBe("beta__slow_write");
    const row = await db.auditEvent.findFirstOrThrow({ where: { action: "tool.called", toolName: "beta__slow_write" }, orderBy: { id: "desc" } });
    expect(row).toMatchObject({ status: "held", decision: "require_approval", details: expect.objectContaining({ virtualServer: "desk", virtualName: "slow_write" }) as unknown });
  });

  it("the tool's rate limit applies through the virtual server", async () => {
    const first = await agent.client.callTool({ name: "beta_whoami", arguments: {} });
    expect(first.isError ?? false, firstText(first)).toBe(false);
    const second = await agent.client.callTool({ name: "beta_whoami", arguments: {} });
    expect(errorMeta(second).code).toBe("rate_limited");
  });

  it("a disabled member is not served: neither listed nor run", async () => {
    await a.gateway.registry.updateTool(admin, "alpha__whoami", { enabled: false });
    try {
      expect((await agent.client.listTools()).tools.map((t) => t.name)).not.toContain("whoami");
      expect(errorMeta(await agent.client.callTool({ name: "whoami", arguments: {} })).code).toBe("tool_disabled");
    } finally {
      await a.gateway.registry.updateTool(admin, "alpha__whoami", { enabled: true });
    }
  });

  it("prompts and resources: members only, a prompt under its new name", async () => {
    expect((await agent.client.listPrompts()).prompts.map((p) => p.name)).toEqual(["hello"]);
    const prompt = await agent.client.getPrompt({ name: "hello", arguments: { who: "desk" } });
    expect(prompt.messages.length).toBeGreaterThan(0);
    expect(fixtureEvents(alphaDir).some((e) => e.event === "prompt" && e.tool === "greet")).toBe(true);
    await expect(agent.client.getPrompt({ name: "alpha__greet" })).rejects.toThrow(/Unknown prompt/);
    const resources = (await agent.client.listResources()).resources;
    expect(resources.map((r) => [r.uri, r.description])).toEqual([["fixture://alpha/small", "A small text."]]);
    expect((await agent.client.readResource({ uri: "fixture://alpha/small" })).contents).toHaveLength(1);
    await expect(agent.client.readResource({ uri: "fixture://alpha/big" })).rejects.toThrow(/not found/i);
  });

  it("an unknown virtual server is 404", async () => {
    const res = await fetch(url("/mcp/v/nowhere"), { method: "POST", headers: { "content-type": "application/json", accept: "application/json, text/event-stream", authorization: `Bearer ${env.token}` }, body: "{}" });
    expect(res.status).toBe(404);
  });

  it("a session scoped to a virtual server is served there only: /mcp, /mcp/s and another virtual server refuse it", async () => {
    const user = (await db.agentSession.findFirstOrThrow({ include: { user: true } })).user;
    const scoped = await createAgentSession(db, userContext(user), user.id, { agentId: "scoped", tools: ["*"], virtualServer: "desk" });
    const init = { jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "raw", version: "1" } } };
    const post = (path: string) =>
      fetch(url(path), { method: "POST", headers: { "content-type": "application/json", accept: "application/json, text/event-stream", authorization: `Bearer ${scoped.token}` }, body: JSON.stringify(init) });
    for (const path of ["/mcp", "/mcp/code", "/mcp/s/alpha", "/mcp/v/other"]) {
      const res = await post(path);
      expect(res.status, path).toBe(403);
      expect(((await res.json()) as { error: { data: { code: string } } }).error.data.code).toBe("session_scope_mismatch");
    }
    const ok = await connectAgent(url("/mcp/v/desk"), scoped.token);
    env.agents.push(ok);
    const names = (await ok.client.listTools()).tools.map((t) => t.name);
    expect(names).toContain("record");
    expect(names).not.toContain("alpha__counted");
  });

  it("a session cannot be scoped to a virtual server that does not exist (422 unknown_virtual_server)", async () => {
    const user = (await db.agentSession.findFirstOrThrow({ include: { user: true } })).user;
    await expect(createAgentSession(db, userContext(user), user.id, { agentId: "x", tools: ["*"], virtualServer: "nowhere" })).rejects.toMatchObject({
      code: "validation_failed",
      details: [expect.objectContaining({ code: "unknown_virtual_server" })],
    });
  });

  it("members refer to their upstream by server and name: after a new version of the upstream is approved they are served on", async () => {
    const alpha = await db.upstreamServer.findUniqueOrThrow({ where: { slug: "alpha" } });
    const direct = await env.agent(); // /mcp, whitelisting everything
    await direct.client.callTool({ name: "alpha__add_tool", arguments: {} });
    const pending = await waitUntil("alpha's new version to wait for review", async () => (await db.serverVersion.findFirst({ where: { serverId: alpha.id, review: "pending" } })) ?? undefined);
    await a.gateway.registry.approveDefinitions(admin, "alpha", pending.id, {});
    const result = await agent.client.callTool({ name: "record", arguments: { name: "vs-after-upgrade" } });
    expect(result.isError ?? false, firstText(result)).toBe(false);
    const row = await db.auditEvent.findFirstOrThrow({ where: { action: "tool.called", toolName: "alpha__counted" }, orderBy: { id: "desc" } });
    expect(row).toMatchObject({ status: "ok", upstreamVersion: pending.version, details: { virtualServer: "desk", virtualName: "record" } });
    // The new tool is not a member: not listed here.
    expect((await agent.client.listTools()).tools.map((t) => t.name)).not.toContain("added_later");
  });

  it("a change to the members is served from the next request on", async () => {
    await a.gateway.virtualServers.update(admin, "desk", { members: [{ kind: "tool", server: "alpha", name: "counted", exposedName: "ledger" }] });
    const names = (await agent.client.listTools()).tools.map((t) => t.name);
    expect(names).toContain("ledger");
    expect(names).not.toContain("record");
  });
});
