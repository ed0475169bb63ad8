// Least privilege at the gateway, table-driven over real MCP: each case asserts the decision, that a denied call
// never reached the upstream (the fixture logs every call it receives) and left a security audit event, and
// that an allowed one arrived with exactly the arguments the policy let through (row caps applied).
import { isGatewayTool } from "../mcp/gateway-tools";
import { mkdir, rm, symlink, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { TCreateRule } from "../../lib/policy-schemas";
import type { RequestContext } from "../context";
import type { User } from "../db/client";
import { insertUser, userContext } from "../test/contexts";
import {
  agentToken,
  busHears,
  connectAgent,
  everythingServer,
  errorMeta,
  fixtureEvents,
  firstText,
  misbehavingServer,
  setUpGatewayTest,
  type Agent,
  type GatewayTestEnv,
  type TestGateway,
} from "../test/gateway-harness";
import { createTestDb } from "../test/test-db";

const db = createTestDb();

type Expect = "allow" | "held" | "tool_not_allowed" | "policy_denied" | "unknown_tool" | "invalid_tool_name";
type Case = { title: string; tool: string; args?: Record<string, unknown>; expect: Expect; agent?: "main" | "narrow" | "greedy"; upstreamArgs?: Record<string, unknown> };

// Fixed before the cases are built (at collection time); created in beforeAll, removed with the env's temp dirs.
const root = path.join(os.tmpdir(), `portcullis-least-privilege-${String(process.pid)}`);
const p = (...parts: string[]) => path.join(root, ...parts);

// `acme__whoami` takes any arguments and carries the rules; `acme__fail` is HIGH; `acme__counted` MEDIUM without rules.
function cases(): Case[] {
  return [
    // ── whitelist and tool-name tricks ──
    { title: "a whitelisted tool runs", tool: "acme__whoami", expect: "allow" },
    { title: "another server's tool (not on the whitelist)", tool: "other__whoami", expect: "tool_not_allowed" },
    { title: "another server's prefix on a real tool name", tool: "other__counted", args: { name: "x" }, expect: "tool_not_allowed" },
    { title: "upper-case server prefix", tool: "ACME__whoami", expect: "unknown_tool" },
    { title: "upper-case tool name", tool: "acme__WHOAMI", expect: "unknown_tool" },
    { title: "Cyrillic look-alike 'а' in the prefix", tool: "\u0430cme__whoami", expect: "invalid_tool_name" },
    { title: "Greek look-alike 'ο' in the tool name", tool: "acme__wh\u03bfami", expect: "invalid_tool_name" },
    { title: "full-width underscore separator", tool: "acme\uff3f\uff3fwhoami", expect: "invalid_tool_name" },
    { title: "zero-width space in the name", tool: "acme__who\u200bami", expect: "invalid_tool_name" },
    { title: "trailing space", tool: "acme__whoami ", expect: "invalid_tool_name" },
    { title: "single underscore separator", tool: "acme_whoami", expect: "unknown_tool" },
    { title: "narrow session: the one tool it asked for", tool: "acme__whoami", agent: "narrow", expect: "allow" },
    { title: "narrow session: a sibling tool of the same server", tool: "acme__counted", args: { name: "x" }, agent: "narrow", expect: "tool_not_allowed" },
    { title: "greedy session: asked for more than its user holds, gets only what is held", tool: "acme__whoami", agent: "greedy", expect: "allow" },
    { title: "greedy session: a tool it asked for but its user does not hold", tool: "acme__counted", args: { name: "x" }, agent: "greedy", expect: "tool_not_allowed" },
    { title: "greedy session: another server it asked for but its user does not hold", tool: "other__whoami", agent: "greedy", expect: "tool_not_allowed" },

    // ── risk tiers ──
    { title: "HIGH tier is held for a person's approval (the upstream never sees it)", tool: "acme__fail", expect: "held" },
    { title: "MEDIUM tier without rules runs", tool: "acme__counted", args: { name: "x" }, expect: "allow" },

    // ── path rule: traversal in its encodings, symlinks, prefixes, URIs ──
    { title: "path inside the allowed dir", tool: "acme__whoami", args: { path: p("allowed", "report.txt") }, expect: "allow" },
    { title: "path to a not-yet-existing file inside", tool: "acme__whoami", args: { path: p("allowed", "new", "file.txt") }, expect: "allow" },
    { title: "path through an inner symlink that stays inside", tool: "acme__whoami", args: { path: p("allowed", "inner", "doc.txt") }, expect: "allow" },
    { title: "'..' resolved back inside", tool: "acme__whoami", args: { path: `${p("allowed", "sub")}/../report.txt` }, expect: "allow" },
    { title: "plain outside path", tool: "acme__whoami", args: { path: "/etc/passwd" }, expect: "policy_denied" },
    { title: "'..' traversal", tool: "acme__whoami", args: { path: `${p("allowed")}/../secret/key.txt` }, expect: "policy_denied" },
    { title: "repeated slashes and '..'", tool: "acme__whoami", args: { path: `${p("allowed")}//..//secret//key.txt` }, expect: "policy_denied" },
    { title: "percent-encoded '../'", tool: "acme__whoami", args: { path: `${p("allowed")}/..%2fsecret/key.txt` }, expect: "policy_denied" },
    { title: "percent-encoded dots", tool: "acme__whoami", args: { path: `${p("allowed")}/%2e%2e/secret/key.txt` }, expect: "policy_denied" },
    { title: "double percent-encoding", tool: "acme__whoami", args: { path: `${p("allowed")}/%252e%252e%252fsecret/key.txt` }, expect: "policy_denied" },
    { title: "backslash traversal", tool: "acme__whoami", args: { path: `${p("allowed")}\\..\\secret\\key.txt` }, expect: "policy_denied" },
    { title: "NUL byte", tool: "acme__whoami", args: { path: `${p("allowed", "report.txt")}\u0000.png` }, expect: "policy_denied" },
    { title: "file:// URI inside", tool: "acme__whoami", args: { path: `file://${p("allowed", "report.txt")}` }, expect: "allow" },
    { title: "file:// URI outside", tool: "acme__whoami", args: { path: `file://${p("secret", "key.txt")}` }, expect: "policy_denied" },
    { title: "file:// URI with a foreign host", tool: "acme__whoami", args: { path: `file://evil.example${p("allowed", "report.txt")}` }, expect: "policy_denied" },
    { title: "symlink escaping the allowed dir", tool: "acme__whoami", args: { path: p("allowed", "escape", "key.txt") }, expect: "policy_denied" },
    { title: "new file under an escaping symlink", tool: "acme__whoami", args: { path: p("allowed", "escape", "new.txt") }, expect: "policy_denied" },
    { title: "sibling dir sharing the prefix", tool: "acme__whoami", args: { path: p("allowed-not", "x.txt") }, expect: "policy_denied" },
    { title: "relative path", tool: "acme__whoami", args: { path: "secret/key.txt" }, expect: "policy_denied" },
    { title: "a list of paths with one outside", tool: "acme__whoami", args: { path: [p("allowed", "report.txt"), p("secret", "key.txt")] }, expect: "policy_denied" },
    { title: "URI under an allowed URI prefix", tool: "acme__whoami", args: { path: "orders://order/42" }, expect: "allow" },
    { title: "URI beside the allowed prefix", tool: "acme__whoami", args: { path: "orders://orders-secret/1" }, expect: "policy_denied" },
    { title: "URI with encoded traversal", tool: "acme__whoami", args: { path: "orders://order/..%2f..%2fadmin" }, expect: "policy_denied" },
    { title: "a path that is not a string", tool: "acme__whoami", args: { path: 42 }, expect: "policy_denied" },
    { title: "narrow session: no paths at all", tool: "acme__whoami", args: { path: p("allowed", "report.txt") }, agent: "narrow", expect: "policy_denied" },

    // ── SQL read-only rule ──
    { title: "one SELECT", tool: "acme__whoami", args: { sql: "SELECT id, status FROM orders WHERE status = 'open' LIMIT 5" }, expect: "allow" },
    { title: "a read-only CTE with UNION", tool: "acme__whoami", args: { sql: "WITH o AS (SELECT * FROM orders) SELECT id FROM o UNION SELECT 1" }, expect: "allow" },
    { title: "EXPLAIN without ANALYZE", tool: "acme__whoami", args: { sql: "EXPLAIN SELECT * FROM orders" }, expect: "allow" },
    { title: "a comment hiding nothing", tool: "acme__whoami", args: { sql: "SELECT 1 -- ; DELETE FROM orders" }, expect: "allow" },
    { title: "stacked statements", tool: "acme__whoami", args: { sql: "SELECT 1; DELETE FROM orders" }, expect: "policy_denied" },
    { title: "stacked behind a block comment", tool: "acme__whoami", args: { sql: "SELECT 1 /* ; */ ; DROP TABLE orders" }, expect: "policy_denied" },
    { title: "data-modifying CTE", tool: "acme__whoami", args: { sql: "WITH gone AS (DELETE FROM orders RETURNING *) SELECT * FROM gone" }, expect: "policy_denied" },
    { title: "UPDATE in mixed case", tool: "acme__whoami", args: { sql: "uPdAtE orders SET status = 'x'" }, expect: "policy_denied" },
    { title: "SELECT INTO", tool: "acme__whoami", args: { sql: "SELECT * INTO stolen FROM orders" }, expect: "policy_denied" },
    { title: "locking clause", tool: "acme__whoami", args: { sql: "SELECT * FROM orders FOR UPDATE" }, expect: "policy_denied" },
    { title: "pg_sleep in mixed case", tool: "acme__whoami", args: { sql: "SELECT Pg_SlEeP(10)" }, expect: "policy_denied" },
    { title: "quoted, schema-qualified pg_sleep", tool: "acme__whoami", args: { sql: 'SELECT "pg_catalog"."pg_sleep"(10)' }, expect: "policy_denied" },
    { title: "pg_terminate_backend in a subquery", tool: "acme__whoami", args: { sql: "SELECT * FROM orders WHERE id IN (SELECT pg_terminate_backend(1)::text)" }, expect: "policy_denied" },
    { title: "dblink", tool: "acme__whoami", args: { sql: "SELECT * FROM dblink('host=x', 'DELETE FROM t') AS t(a int)" }, expect: "policy_denied" },
    { title: "lo_import", tool: "acme__whoami", args: { sql: "SELECT lo_import('/etc/passwd')" }, expect: "policy_denied" },
    { title: "set_config", tool: "acme__whoami", args: { sql: "SELECT set_config('default_transaction_read_only', 'off', false)" }, expect: "policy_denied" },
    { title: "EXPLAIN ANALYZE (runs the statement)", tool: "acme__whoami", args: { sql: "EXPLAIN ANALYZE DELETE FROM orders" }, expect: "policy_denied" },
    { title: "a denied function named in the rule's config", tool: "acme__whoami", args: { sql: "SELECT send_mail('a@b.c')" }, expect: "policy_denied" },
    { title: "unparseable SQL", tool: "acme__whoami", args: { sql: "SELEC * FRM orders" }, expect: "policy_denied" },

    // ── value constraints and row cap ──
    { title: "enum value allowed", tool: "acme__whoami", args: { status: "open" }, expect: "allow" },
    { title: "enum value outside the list", tool: "acme__whoami", args: { status: "Open" }, expect: "policy_denied" },
    { title: "number in range", tool: "acme__whoami", args: { amount: 100 }, expect: "allow" },
    { title: "number above the range", tool: "acme__whoami", args: { amount: 101 }, expect: "policy_denied" },
    { title: "number below the range", tool: "acme__whoami", args: { amount: 0 }, expect: "policy_denied" },
    { title: "number sent as a string", tool: "acme__whoami", args: { amount: "50" }, expect: "policy_denied" },
    { title: "regex matched", tool: "acme__whoami", args: { code: "ORD-42" }, expect: "allow" },
    { title: "regex must match the whole value", tool: "acme__whoami", args: { code: "ORD-42; DROP" }, expect: "policy_denied" },
    { title: "within maximum length", tool: "acme__whoami", args: { note: "short" }, expect: "allow" },
    { title: "over maximum length", tool: "acme__whoami", args: { note: "much too long for this" }, expect: "policy_denied" },
    { title: "row cap lowers a large limit", tool: "acme__whoami", args: { limit: 10_000 }, expect: "allow", upstreamArgs: { limit: 50 } },
    { title: "row cap keeps a small limit", tool: "acme__whoami", args: { limit: 7 }, expect: "allow", upstreamArgs: { limit: 7 } },
    { title: "row cap adds the cap when the limit is missing", tool: "acme__whoami", args: {}, expect: "allow", upstreamArgs: { limit: 50 } },
    { title: "row cap refuses a non-number", tool: "acme__whoami", args: { limit: "all" }, expect: "policy_denied" },
  ];
}

describe("least privilege: whitelist → tier → parameter rules, over real MCP", () => {
  let env: GatewayTestEnv;
  let gw: TestGateway;
  let admin: RequestContext;
  let user: User;
  const agents: Record<"main" | "narrow" | "greedy", Agent | undefined> = { main: undefined, narrow: undefined, greedy: undefined };
  const calls = () => fixtureEvents(env.dir).filter((e) => e.event === "call");
  const securityEvents = async () => db.auditEvent.count({ where: { category: "security", action: "tool.called" } });

  beforeAll(async () => {
    env = await setUpGatewayTest(db, "least-privilege");
    gw = env.gateways[0]!;
    admin = env.admin;
    await rm(root, { recursive: true, force: true });
    await mkdir(p("allowed", "sub"), { recursive: true });
    await mkdir(p("allowed", "subdir"), { recursive: true });
    await mkdir(p("secret"), { recursive: true });
    await mkdir(p("allowed-not"), { recursive: true });
    await writeFile(p("allowed", "report.txt"), "report");
    await writeFile(p("allowed", "subdir", "doc.txt"), "doc");
    await writeFile(p("secret", "key.txt"), "secret");
    await symlink("../secret", p("allowed", "escape"));
    await symlink("./subdir", p("allowed", "inner"));

    for (const slug of ["acme", "other"]) {
      const { server } = await gw.gateway.registry.register(admin, misbehavingServer(env.dir, { slug }));
      if (server.status !== "HEALTHY") throw new Error(`${slug}: ${server.lastError ?? server.status}`);
    }
    const policy = gw.gateway.policy;
    await policy.bulkTier(admin, { tools: ["acme__whoami", "acme__counted", "other__whoami", "other__counted"], riskTier: "MEDIUM" });
    await policy.bulkTier(admin, { tools: ["acme__fail"], riskTier: "HIGH" });
    const rules: TCreateRule[] = [
      { kind: "path", argument: "path" },
      { kind: "sql_readonly", argument: "sql", deniedFunctions: ["send_mail"] },
      { kind: "value", argument: "status", enum: ["open", "closed"] },
      { kind: "value", argument: "amount", min: 1, max: 100 },
      { kind: "value", argument: "code", pattern: "[A-Z]{3}-\\d+" },
      { kind: "value", argument: "note", maxLength: 10 },
      { kind: "row_cap", argument: "limit", max: 50 },
    ];
    for (const r of rules) await policy.createRule(admin, "acme__whoami", r);

    // The user holds acme's tools, the allowed dir and one URI prefix — not `other`, not the secret dir.
    user = await insertUser(db, { role: "USER" });
    for (const g of [
      { kind: "tool", pattern: "acme__*" },
      { kind: "path", pattern: p("allowed") },
      { kind: "path", pattern: "orders://order/" },
    ] as const) {
      await policy.createGrant(admin, { ...g, userId: user.id });
    }
    agents.main = await connectAgent(gw.mcpUrl, await agentToken(db, user, { tools: ["acme__*"], paths: [p("allowed"), "orders://order/"] }));
    agents.narrow = await connectAgent(gw.mcpUrl, await agentToken(db, user, { tools: ["acme__whoami"], paths: [] }));
    // A user holding only acme__whoami asks for everything of acme and of other.
    const limited = await insertUser(db, { role: "USER" });
    await policy.createGrant(admin, { kind: "tool", pattern: "acme__whoami", userId: limited.id });
    agents.greedy = await connectAgent(gw.mcpUrl, await agentToken(db, limited, { tools: ["acme__*", "other__*"], paths: [] }));
    env.agents.push(agents.main, agents.narrow, agents.greedy);
  });

  afterAll(async () => {
    await env?.close();
    await rm(root, { recursive: true, force: true });
  });

  it("has at least 60 cases", () => {
    expect(cases().length).toBeGreaterThanOrEqual(60);
  });

  it.each(cases().map((c) => [c.title, c] as const))("%s", async (_title, c) => {
    const agent = agents[c.agent ?? "main"]!;
    const args = c.args ?? {};
    const before = calls().length;
    const securityBefore = await securityEvents();
    let outcome: Expect;
    let text: string;
    try {
      const result = await agent.client.callTool({ name: c.tool, arguments: args });
      text = firstText(result);
      const held = (result.structuredContent as { approval_id?: string } | undefined)?.approval_id;
      outcome = result.isError ? ((errorMeta(result).code ?? "upstream_error") as Expect) : held ? "held" : "allow";
    } catch (err) {
      text = (err as Error).message;
      outcome = /unknown_tool/.test(text) ? "unknown_tool" : (text as Expect);
    }
    expect(outcome, text).toBe(c.expect);
    const received = calls().slice(before);
    if (c.expect === "allow") {
      expect(received).toHaveLength(1);
      expect(received[0]!.args).toEqual({ ...args, ...(c.upstreamArgs ?? {}), ...(c.tool === "acme__whoami" && c.upstreamArgs === undefined && { limit: 50 }) });
    } else if (c.expect === "held") {
      // Not run, not a refusal: an approval request the agent can follow.
      expect(received).toHaveLength(0);
      expect(await securityEvents()).toBe(securityBefore);
      expect(text).toMatch(/approv/);
    } else {
      // The upstream never saw it, and the refusal is a security event with a reason the model can act on.
      expect(received).toHaveLength(0);
      expect(await securityEvents()).toBe(securityBefore + 1);
      expect(text.length).toBeGreaterThan(20);
    }
  });

  it("a session lists only what it may call: the narrow one sees one tool, the greedy one only what its user holds", async () => {
    // Upstream tools only: the gateway's task tools are every session's.
    const names = async (a: Agent) => (await a.client.listTools()).tools.map((t) => t.name).filter((n) => !isGatewayTool(n)).sort();
    expect(await names(agents.narrow!)).toEqual(["acme__whoami"]);
    expect(await names(agents.greedy!)).toEqual(["acme__whoami"]);
    const main = await names(agents.main!);
    expect(main).toContain("acme__counted");
    expect(main.some((n) => n.startsWith("other__"))).toBe(false);
  });

  it("a denial's audit event names the decision, the code, the deciding rule, the agent and the session", async () => {
    await agents.main!.client.callTool({ name: "acme__whoami", arguments: { sql: "DELETE FROM orders" } });
    const row = await db.auditEvent.findFirstOrThrow({ where: { action: "tool.called", toolName: "acme__whoami" }, orderBy: { id: "desc" } });
    const rule = await db.parameterRule.findFirstOrThrow({ where: { kind: "SQL_READONLY" } });
    expect(row).toMatchObject({ category: "security", decision: "deny", status: "denied", errorCode: "policy_denied", ruleId: rule.id, agentId: "test-agent" });
    expect(row.sessionId).toBeTruthy();
    expect(row.reason).toMatch(/read-only/);
  });

  it("a removed grant is enforced on the next call of an existing session", async () => {
    const a = await connectAgent(gw.mcpUrl, await agentToken(db, user, { tools: ["acme__counted"], paths: [] }));
    env.agents.push(a);
    expect((await a.client.callTool({ name: "acme__counted", arguments: { name: "x" } })).isError ?? false).toBe(false);
    const grants = await gw.gateway.policy.listGrants({ userId: user.id });
    const acme = grants.find((g) => g.pattern === "acme__*")!;
    await gw.gateway.policy.deleteGrant(admin, acme.id);
    const denied = await a.client.callTool({ name: "acme__counted", arguments: { name: "x" } });
    expect(errorMeta(denied).code).toBe("tool_not_allowed");
    await gw.gateway.policy.revert(admin, (await gw.gateway.policy.history({ limit: 1 })).items[0]!.id);
    expect((await a.client.callTool({ name: "acme__counted", arguments: { name: "x" } })).isError ?? false).toBe(false);
  });
});

describe("agent session tokens on the MCP endpoints", () => {
  let env: GatewayTestEnv;
  let gw: TestGateway;
  let user: User;
  const initialize = { jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "t", version: "1" } } };
  const post = (token: string, body: unknown = initialize, headers: Record<string, string> = {}): Promise<Response> =>
    fetch(gw.mcpUrl, {
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/json, text/event-stream", authorization: `Bearer ${token}`, ...headers },
      body: JSON.stringify(body),
    });
  const refusal = async (res: Response): Promise<{ status: number; message: string }> => ({ status: res.status, message: ((await res.json()) as { error: { message: string } }).error.message });

  beforeAll(async () => {
    env = await setUpGatewayTest(db, "session-tokens");
    gw = env.gateways[0]!;
    user = await insertUser(db, { role: "USER" });
    await gw.gateway.policy.createGrant(env.admin, { kind: "tool", pattern: "*", userId: user.id });
  });

  afterAll(async () => {
    await env?.close();
  });

  it.each([
    ["malformed", "pcs_short", /malformed/],
    ["a personal API token", `pct_${"A".repeat(32)}`, /Personal API tokens .* are for the REST API/],
    ["unknown", `pcs_${"B".repeat(32)}`, /unknown/],
  ] as const)("401 for a %s token, with the reason", async (_label: string, token: string, reason: RegExp) => {
    const r = await refusal(await post(token));
    expect(r.status).toBe(401);
    expect(r.message).toMatch(reason);
  });

  it("401 for a tampered token (one character changed)", async () => {
    const token = await agentToken(db, user, { tools: ["*"] });
    const last = token.at(-1) === "A" ? "B" : "A";
    expect((await post(token)).status).toBe(200);
    const r = await refusal(await post(token.slice(0, -1) + last));
    expect(r).toMatchObject({ status: 401, message: expect.stringMatching(/unknown .*altered/) as unknown });
  });

  it("401 for an expired token, also when it was cached while valid", async () => {
    const token = await agentToken(db, user, { tools: ["*"] });
    expect((await post(token)).status).toBe(200);
    await db.agentSession.updateMany({ where: { userId: user.id }, data: { expiresAt: new Date(Date.now() - 1000) } });
    // The cached copy expires by its own clock too; a fresh lookup sees the past expiry.
    await busHears(db, gw.gateway, [{ kind: "user", userId: user.id }]);
    const r = await refusal(await post(token));
    expect(r).toMatchObject({ status: 401, message: expect.stringMatching(/expired/) as unknown });
  });

  it("401 for a revoked token on the next call, on another process too", async () => {
    const token = await agentToken(db, user, { tools: ["*"] });
    const agent = await connectAgent(gw.mcpUrl, token);
    env.agents.push(agent);
    const row = await db.agentSession.findFirstOrThrow({ where: { userId: user.id, revokedAt: null, expiresAt: { gt: new Date() } }, orderBy: { createdAt: "desc" } });
    await gw.gateway.sessions.revoke(userContext(user), row.id);
    await expect(agent.client.listTools()).rejects.toThrow(/revoked/);
    const r = await refusal(await post(token));
    expect(r).toMatchObject({ status: 401, message: expect.stringMatching(/revoked/) as unknown });
  });

  it("another user's session token cannot continue this user's MCP session (404), nor can another agent session of the same user", async () => {
    const mine = await connectAgent(gw.mcpUrl, await agentToken(db, user, { tools: ["*"] }));
    env.agents.push(mine);
    const other = await insertUser(db, { role: "USER" });
    await gw.gateway.policy.createGrant(env.admin, { kind: "tool", pattern: "*", userId: other.id });
    const list = { jsonrpc: "2.0", id: 2, method: "tools/list", params: {} };
    for (const token of [await agentToken(db, other, { tools: ["*"] }), await agentToken(db, user, { tools: ["*"] })]) {
      const res = await post(token, list, { "mcp-session-id": mine.sessionId, "mcp-protocol-version": "2025-06-18" });
      expect(res.status).toBe(404);
    }
  });

  it("POST /api/v1/sessions semantics: 403 when the user holds none of the tools, 422 above the maximum lifetime, dropped paths reported", async () => {
    const sessions = gw.gateway.sessions;
    const ctx = userContext(user);
    await expect(sessions.create(ctx, user.id, { agentId: "a", tools: ["orders__*"], paths: [], ttlSeconds: 600 })).resolves.toMatchObject({ tools: ["orders__*"] });
    const nobody = await insertUser(db, { role: "USER" });
    await expect(sessions.create(userContext(nobody), nobody.id, { agentId: "a", tools: ["orders__*"] })).rejects.toMatchObject({ code: "forbidden" });
    await expect(sessions.create(ctx, user.id, { agentId: "a", tools: ["*"], ttlSeconds: 10 * 86_400 })).rejects.toMatchObject({ code: "validation_failed" });
    const made = await sessions.create(ctx, user.id, { agentId: "a", tools: ["*"], paths: ["/srv/data"] });
    expect(made.paths).toEqual([]);
    expect(made.dropped.paths).toEqual(["/srv/data"]);
    expect(new Date(made.expiresAt).getTime() - Date.now()).toBeGreaterThan(3500_000);
    expect(new Date(made.expiresAt).getTime() - Date.now()).toBeLessThanOrEqual(3600_000);
  });
});

describe("resources by the session's path whitelist, on /mcp and /mcp/s/<server>", () => {
  let env: GatewayTestEnv;
  let gw: TestGateway;
  const PREFIX = "demo://resource/static/document/";

  beforeAll(async () => {
    env = await setUpGatewayTest(db, "resource-paths");
    gw = env.gateways[0]!;
    const { server } = await gw.gateway.registry.register(env.admin, everythingServer());
    if (server.status !== "HEALTHY") throw new Error(server.lastError ?? server.status);
  });

  afterAll(async () => {
    await env?.close();
  });

  it.each(["/mcp", "/mcp/s/everything"])("%s lists and reads only resources under the session's paths; a read outside is refused and audited", async (endpoint) => {
    const user = await insertUser(db, { role: "USER" });
    await gw.gateway.policy.createGrant(env.admin, { kind: "tool", pattern: "everything__*", userId: user.id });
    await gw.gateway.policy.createGrant(env.admin, { kind: "path", pattern: "demo://resource/", userId: user.id });
    const agent = await connectAgent(new URL(endpoint, gw.mcpUrl), await agentToken(db, user, { tools: ["everything__*"], paths: [PREFIX] }));
    env.agents.push(agent);
    const { resources } = await agent.client.listResources();
    expect(resources.length).toBeGreaterThan(0);
    expect(resources.every((r) => r.uri.startsWith(PREFIX))).toBe(true);
    const read = await agent.client.readResource({ uri: resources[0]!.uri });
    expect(read.contents.length).toBeGreaterThan(0);
    const before = await db.auditEvent.count({ where: { category: "security", action: "resource.read" } });
    await expect(agent.client.readResource({ uri: "demo://resource/dynamic/text/1" })).rejects.toThrow(/path_not_allowed/);
    await expect(agent.client.readResource({ uri: `${PREFIX}..%2f..%2fdynamic/text/1` })).rejects.toThrow(/path_not_allowed/);
    expect(await db.auditEvent.count({ where: { category: "security", action: "resource.read" } })).toBe(before + 2);
  });
});
