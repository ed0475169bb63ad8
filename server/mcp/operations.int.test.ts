// Prompts, resource reads and subscriptions, and completions pass the request pipeline on /mcp and /mcp/s/<slug>:
// rate limited per server (refused with rate_limited before the upstream is asked), bounded like tool output,
// refused outside the session's paths, every outcome audited. Over real MCP (SDK client, Streamable HTTP) in front
// of the misbehaving fixture with its offerings, whose event log shows what reached the upstream.
import { McpError } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { insertUser } from "../test/contexts";
import { agentToken, connectAgent, fixtureEvents, misbehavingServer, setUpGatewayTest, waitUntil, type Agent, type GatewayTestEnv, type TestGateway } from "../test/gateway-harness";
import { createTestDb } from "../test/test-db";

const db = createTestDb();
const LIMIT = 2;

/** Each endpoint has its server (and so its own budgets): `/mcp` names it by gateway names, `/mcp/s` by its own. */
const ENDPOINTS = [
  { path: "/mcp", slug: "ops-a", endpoint: "mcp", prompt: "ops-a__greet" },
  { path: "/mcp/s/ops-b", slug: "ops-b", endpoint: "mcp/s/ops-b", prompt: "greet" },
] as const;

/** Expects the request refused with a JSON-RPC error whose message matches `message`; returns the error. */
async function refusal(p: Promise<unknown>, message: RegExp): Promise<McpError> {
  await expect(p).rejects.toThrow(message);
  return (await p.catch((e: unknown) => e)) as McpError;
}

describe("prompts, resources and completions through the request pipeline", () => {
  let env: GatewayTestEnv;
  let gw: TestGateway;
  let token = "";
  const events = (event: string) => fixtureEvents(env.dir).filter((e) => e.event === event);
  const connect = async (path: string, t = token): Promise<Agent> => {
    const agent = await connectAgent(new URL(path, gw.mcpUrl), t);
    env.agents.push(agent);
    return agent;
  };

  beforeAll(async () => {
    env = await setUpGatewayTest(db, "operations", { gateways: 2 });
    gw = env.gateways[0]!;
    token = env.token;
    for (const { slug } of ENDPOINTS) {
      const { server } = await gw.gateway.registry.register(env.admin, misbehavingServer(env.dir, { slug, offerings: true }));
      if (server.status !== "HEALTHY") throw new Error(`${slug} is ${server.status}: ${server.lastError ?? ""}`);
      await gw.gateway.registry.update(env.admin, slug, { rateLimitPerMinute: LIMIT });
    }
  });

  afterAll(async () => {
    await env?.close();
    await db.$disconnect();
  });

  it.each(ENDPOINTS)("$path prompts/get – past the server's limit refused rate_limited with a retry hint, audited as a denial, never sent upstream", async ({ path, endpoint, prompt }) => {
    const agent = await connect(path);
    const before = events("prompt").length;
    for (let i = 0; i < LIMIT; i++) expect((await agent.client.getPrompt({ name: prompt, arguments: { who: "Ada" } })).messages.length).toBe(1);
    const err = await refusal(agent.client.getPrompt({ name: prompt, arguments: { who: "Ada" } }), /\[rate_limited\] Too many calls for the prompt \S+greet\. Try again in \d+ s\./);
    expect(err).toBeInstanceOf(McpError);
    expect(err.data).toMatchObject({ code: "rate_limited", retryAfterSeconds: expect.any(Number) as number });
    expect(events("prompt").length - before).toBe(LIMIT);
    const audit = await db.auditEvent.findMany({ where: { endpoint, action: "prompt.fetched" }, orderBy: { id: "asc" } });
    expect(audit.map((e) => [e.status, e.errorCode])).toEqual([["ok", null], ["ok", null], ["denied", "rate_limited"]]);
    expect(audit[2]).toMatchObject({ category: "security", decision: "deny", toolName: prompt, arguments: { keys: ["who"] } });
  });

  it.each(ENDPOINTS)("$path completion/complete – past the server's limit refused rate_limited, audited, never sent upstream", async ({ path, endpoint, prompt }) => {
    const agent = await connect(path);
    const before = events("complete").length;
    const complete = () => agent.client.complete({ ref: { type: "ref/prompt", name: prompt }, argument: { name: "who", value: "A" } });
    for (let i = 0; i < LIMIT; i++) expect((await complete()).completion.values).toEqual(["Ada", "Alan"]);
    await refusal(complete(), /\[rate_limited\] Too many calls for completions of ops-\w\. Try again in \d+ s\./);
    expect(events("complete").length - before).toBe(LIMIT);
    const audit = await db.auditEvent.findMany({ where: { endpoint, action: "completion.requested" }, orderBy: { id: "asc" } });
    expect(audit.map((e) => [e.status, e.errorCode])).toEqual([["ok", null], ["ok", null], ["denied", "rate_limited"]]);
  });

  it.each(ENDPOINTS)("$path resources/read – a resource over the output bound comes back cut with a marker, audited truncated", async ({ path, endpoint, slug }) => {
    const agent = await connect(path);
    const read = await agent.client.readResource({ uri: `fixture://${slug}/big` });
    const bytes = Buffer.byteLength(JSON.stringify(read));
    expect(bytes).toBeLessThanOrEqual(100 * 1024 + 200); // the bound, and the SDK's own envelope
    const first = read.contents[0] as { uri: string; text: string };
    expect(first.uri).toBe(`fixture://${slug}/big`);
    expect(first.text.length).toBeGreaterThan(90 * 1024);
    expect(first.text).toMatch(/^b+$/);
    const marker = read.contents.at(-1) as { text: string };
    expect(marker.text).toMatch(/^\[Portcullis: output truncated — about 100 KB of 300 KB shown, 200 KB left out\. Read a smaller resource/);
    expect(read._meta?.["portcullis/truncated"]).toMatchObject({ maxBytes: 100 * 1024 });
    const row = await db.auditEvent.findFirstOrThrow({ where: { endpoint, action: "resource.read" }, orderBy: { id: "desc" } });
    expect(row).toMatchObject({ status: "ok", truncated: true, arguments: { uri: `fixture://${slug}/big` } });
    expect(row.resultBytes).toBeGreaterThan(300 * 1024);
  });

  it.each(ENDPOINTS)("$path resources/read (and subscribe where offered) outside the session's paths – refused path_not_allowed, audited, never sent upstream", async ({ path, endpoint, slug }) => {
    const user = await insertUser(db, { role: "USER" });
    await gw.gateway.policy.createGrant(env.admin, { kind: "tool", pattern: "*", userId: user.id });
    await gw.gateway.policy.createGrant(env.admin, { kind: "path", pattern: "*", userId: user.id });
    const [small, big] = [`fixture://${slug}/small`, `fixture://${slug}/big`];
    const agent = await connect(path, await agentToken(db, user, { tools: ["*"], paths: [small] }));
    const reads = () => events("read").filter((e) => (e.args as { uri: string }).uri === big).length;
    const subscribes = () => events("subscribe").length;
    const [readsBefore, subscribesBefore] = [reads(), subscribes()];

    await refusal(agent.client.readResource({ uri: big }), /\[path_not_allowed\]/);
    const actions = ["resource.read"];
    if (slug === "ops-b") {
      await refusal(agent.client.subscribeResource({ uri: big }), /\[path_not_allowed\]/);
      await agent.client.subscribeResource({ uri: small });
      expect(subscribes() - subscribesBefore).toBe(1);
      actions.push("resource.subscribed");
    }
    expect(reads()).toBe(readsBefore);
    const denied = await db.auditEvent.findMany({ where: { endpoint, status: "denied", errorCode: "path_not_allowed" }, orderBy: { id: "asc" } });
    expect(denied.map((e) => e.action)).toEqual(actions);
    expect(denied.every((e) => e.category === "security" && (e.arguments as { uri: string }).uri === big)).toBe(true);
  });

  it.each(ENDPOINTS)("$path prompts/get and a completion of a prompt off the session's tool whitelist – refused tool_not_allowed, audited, never sent upstream", async ({ path, endpoint, prompt }) => {
    const user = await insertUser(db, { role: "USER" });
    await gw.gateway.policy.createGrant(env.admin, { kind: "tool", pattern: "*", userId: user.id });
    const agent = await connect(path, await agentToken(db, user, { tools: ["ops-a__whoami", "ops-b__whoami"] }));
    const [prompts, completions] = [events("prompt").length, events("complete").length];
    await refusal(agent.client.getPrompt({ name: prompt }), /\[tool_not_allowed\] This session may not use the prompt/);
    const complete = agent.client.complete({ ref: { type: "ref/prompt", name: prompt }, argument: { name: "who", value: "A" } });
    await refusal(complete, /\[tool_not_allowed\]/);
    expect([events("prompt").length, events("complete").length]).toEqual([prompts, completions]);
    const denied = await db.auditEvent.findMany({ where: { endpoint, status: "denied", errorCode: "tool_not_allowed" }, orderBy: { id: "asc" } });
    expect(denied.map((e) => [e.action, e.toolName, e.category])).toEqual([
      ["prompt.fetched", prompt, "security"],
      ["completion.requested", prompt, "security"],
    ]);
  });

  it("concurrent prompts/get on two gateway processes – exactly the server's limit reaches the upstream, every other is refused rate_limited, each audited once", async () => {
    const { server } = await gw.gateway.registry.register(env.admin, misbehavingServer(env.dir, { slug: "ops-c", offerings: true }));
    if (server.status !== "HEALTHY") throw new Error(`ops-c is ${server.status}: ${server.lastError ?? ""}`);
    await gw.gateway.registry.update(env.admin, "ops-c", { rateLimitPerMinute: 3 });
    // The other process hears of the server and its limit over the change bus.
    await waitUntil("gateway B serves ops-c at its limit", async () => (await env.gateways[1]!.gateway.registry.resolveServer("ops-c", 0))?.rateLimitPerMinute === 3);
    const agents = [await connect("/mcp"), await connectAgent(new URL("/mcp", env.gateways[1]!.mcpUrl), token)];
    env.agents.push(agents[1]!);
    const before = events("prompt").length;
    const outcomes = await Promise.allSettled(Array.from({ length: 12 }, (_, i) => agents[i % 2]!.client.getPrompt({ name: "ops-c__greet" })));
    const refused = outcomes.filter((o): o is PromiseRejectedResult => o.status === "rejected");
    expect(outcomes.length - refused.length).toBe(3);
    expect(refused.every((o) => /\[rate_limited\]/.test(String(o.reason)))).toBe(true);
    expect(events("prompt").length - before).toBe(3);
    const audit = await db.auditEvent.groupBy({ by: ["status", "errorCode"], where: { action: "prompt.fetched", toolName: "ops-c__greet" }, _count: true });
    expect(audit.map((g) => [g.status, g.errorCode, g._count]).sort()).toEqual([["denied", "rate_limited", 9], ["ok", null, 3]]);
  });

  it("/mcp on another gateway process reaches the prompts, resources and completions of a server added on the first", async () => {
    const { server } = await gw.gateway.registry.register(env.admin, misbehavingServer(env.dir, { slug: "ops-d", offerings: true }));
    if (server.status !== "HEALTHY") throw new Error(`ops-d is ${server.status}: ${server.lastError ?? ""}`);
    const b = env.gateways[1]!;
    await waitUntil("gateway B knows ops-d", async () => (await b.gateway.registry.resolveServer("ops-d", 0)) !== null);
    const agent = await connectAgent(new URL("/mcp", b.mcpUrl), token);
    env.agents.push(agent);
    // A read first: it finds its server by URI among the listed ones, and must connect it too.
    expect((await agent.client.readResource({ uri: "fixture://ops-d/small" })).contents).toEqual([{ uri: "fixture://ops-d/small", mimeType: "text/plain", text: "small" }]);
    expect((await agent.client.getPrompt({ name: "ops-d__greet", arguments: { who: "B" } })).messages).toEqual([{ role: "user", content: { type: "text", text: "Hello B. " } }]);
    expect((await agent.client.complete({ ref: { type: "ref/prompt", name: "ops-d__greet" }, argument: { name: "who", value: "Al" } })).completion.values).toEqual(["Alan"]);
  });
});
