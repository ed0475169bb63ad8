// The least-privilege REST API over HTTP on the real app: agent sessions, grants, parameter rules, tiers, policy
// history with revert, the simulator — and a session token used on the app's own /mcp, where the change shows.
import { isGatewayTool } from "@/server/mcp/gateway-tools";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { TAgentSession, TCreatedSession, TDecision, TEffectiveGrant, TGrant, TPolicyChange, TPolicyTool, TRule } from "@/lib/policy-schemas";
import type { TServerWithTools } from "@/lib/schemas";
import { errorMeta, misbehavingServer, removeTempDirs, tempDir, userWithApiToken } from "@/server/test/gateway-harness";
import { createTestDb, testDatabaseUrl, truncateAll } from "@/server/test/test-db";
import { apiRequest, type ApiErrorBody, type ApiResponse } from "@/scripts/test-support/api-request";
import { startApp, stopAllApps } from "@/scripts/test-support/start-app";
import { makeTempDir, removeTempDirs as removeDataDirs } from "@/scripts/test-support/temp-dir";

function expectError(res: ApiResponse, status: number, code: string) {
  expect({ status: res.status, code: (res.body as ApiErrorBody | undefined)?.error?.code }, res.text).toEqual({ status, code });
}

describe("REST API: sessions, grants, rules, tiers, history, simulator", () => {
  const db = createTestDb();
  let base = "";
  const admin = { token: "", id: "" };
  const user = { token: "", id: "" };
  const clients: Client[] = [];

  async function mcpClient(token: string): Promise<Client> {
    const client = new Client({ name: "rest-test", version: "1" });
    await client.connect(new StreamableHTTPClientTransport(new URL("/mcp", base), { requestInit: { headers: { authorization: `Bearer ${token}` } } }));
    clients.push(client);
    return client;
  }

  beforeAll(async () => {
    await truncateAll(db);
    const a = await userWithApiToken(db, "ADMIN");
    const u = await userWithApiToken(db, "USER");
    Object.assign(admin, { token: a.token, id: a.user.id });
    Object.assign(user, { token: u.token, id: u.user.id });
    const app = await startApp({ env: { DATABASE_URL: testDatabaseUrl(), DATA_DIR: await makeTempDir("policy-api"), PORTCULLIS_NO_DEMO: "1" } });
    base = app.baseUrl;
    const res = await apiRequest<TServerWithTools>(base, "/api/v1/servers", { token: admin.token, body: misbehavingServer(await tempDir("policy-api"), { slug: "shop" }) });
    if (res.status !== 201 || res.body.server.status !== "HEALTHY") throw new Error(`POST /api/v1/servers: ${res.text}`);
  });

  afterAll(async () => {
    for (const c of clients) await c.close().catch(() => undefined);
    await stopAllApps();
    await removeDataDirs();
    await removeTempDirs();
    await db.$disconnect();
  });

  it("a USER holds nothing at first: 403 for a session, an empty effective grant", async () => {
    const res = await apiRequest(base, "/api/v1/sessions", { token: user.token, body: { agentId: "bot", tools: ["shop__*"], paths: [] } });
    expectError(res, 403, "forbidden");
    const me = await apiRequest<TEffectiveGrant>(base, "/api/v1/me/grant", { token: user.token });
    expect(me.body).toMatchObject({ tools: [], paths: [], callableTools: [] });
  });

  it("grants: 422 for bad input, 403 for a USER, 201 for an admin; the effective grant shows the source", async () => {
    expectError(await apiRequest(base, "/api/v1/grants", { token: admin.token, body: { kind: "tool", pattern: "shop__*" } }), 422, "validation_failed");
    expectError(await apiRequest(base, "/api/v1/grants", { token: admin.token, body: { kind: "path", pattern: "relative/dir", userId: user.id } }), 422, "validation_failed");
    expectError(await apiRequest(base, "/api/v1/grants", { token: user.token, body: { kind: "tool", pattern: "*", userId: user.id } }), 403, "forbidden");
    const g = await apiRequest<TGrant>(base, "/api/v1/grants", { token: admin.token, body: { kind: "tool", pattern: "shop__w*", userId: user.id } });
    expect(g.status, g.text).toBe(201);
    const r = await apiRequest<TGrant>(base, "/api/v1/grants", { token: admin.token, body: { kind: "tool", pattern: "shop__counted", role: "USER" } });
    expect(r.status, r.text).toBe(201);
    const eff = await apiRequest<TEffectiveGrant>(base, `/api/v1/users/${user.id}/grant`, { token: admin.token });
    expect(eff.body.tools).toEqual([{ pattern: "shop__w*", from: "user" }, { pattern: "shop__counted", from: "role:USER" }]);
    expect(eff.body.callableTools).toEqual(["shop__counted", "shop__whoami"]);
  });

  it("POST /api/v1/sessions: 201 with the intersection and a token shown once; 422 for bad input; the token works on /mcp and lists only what it may call", async () => {
    expectError(await apiRequest(base, "/api/v1/sessions", { token: user.token, body: { agentId: "", tools: [] } }), 422, "validation_failed");
    expectError(await apiRequest(base, "/api/v1/sessions", { token: user.token, body: { agentId: "bot", tools: ["shop__*"], ttlSeconds: 10 * 86_400 } }), 422, "validation_failed");
    const res = await apiRequest<TCreatedSession>(base, "/api/v1/sessions", { token: user.token, body: { agentId: "bot", tools: ["shop__*", "other__*"], paths: [] } });
    expect(res.status, res.text).toBe(201);
    expect(res.body.token).toMatch(/^pcs_/);
    expect(res.body.tools).toEqual(["shop__counted", "shop__w*"]);
    expect(res.body.dropped.tools).toEqual(["other__*"]);
    const list = await apiRequest<{ items: TAgentSession[] }>(base, "/api/v1/sessions", { token: user.token });
    expect(list.body.items[0]).toMatchObject({ id: res.body.id, agentId: "bot", status: "active", prefix: res.body.token.slice(0, 10) });
    expect(list.text).not.toContain(res.body.token);

    const client = await mcpClient(res.body.token);
    // Upstream tools only: the gateway's task tools are every session's.
    expect((await client.listTools()).tools.map((t) => t.name).filter((n) => !isGatewayTool(n)).sort()).toEqual(["shop__counted", "shop__whoami"]);
    // A personal API token is not accepted on /mcp.
    await expect(mcpClient(user.token)).rejects.toThrow(/401|REST API/);
  });

  it("POST /api/v1/sessions with a callbackUrl: 422 unless http(s); 201 with the webhook signing secret once; GET shows the URL, never the secret", async () => {
    for (const callbackUrl of ["ftp://example.test/hook", "not a url", `https://example.test/${"x".repeat(2000)}`]) {
      expectError(await apiRequest(base, "/api/v1/sessions", { token: user.token, body: { agentId: "bot", tools: ["shop__*"], callbackUrl } }), 422, "validation_failed");
    }
    for (const callbackUrl of ["http://169.254.169.254/latest/meta-data/", "http://[::ffff:127.0.0.1]:3000/hook", "http://localhost/hook"]) {
      expectError(await apiRequest(base, "/api/v1/sessions", { token: user.token, body: { agentId: "bot", tools: ["shop__*"], callbackUrl } }), 422, "outbound_url_refused");
    }
    const res = await apiRequest<TCreatedSession>(base, "/api/v1/sessions", { token: user.token, body: { agentId: "hooked", tools: ["shop__*"], callbackUrl: "https://hooks.example.test/portcullis" } });
    expect(res.status, res.text).toBe(201);
    expect(res.body.callbackUrl).toBe("https://hooks.example.test/portcullis");
    expect(res.body.callbackSecret).toMatch(/^whsec_[A-Za-z0-9_-]{43}$/);
    const list = await apiRequest<{ items: TAgentSession[] }>(base, "/api/v1/sessions", { token: user.token });
    expect(list.body.items.find((s) => s.id === res.body.id)?.callbackUrl).toBe("https://hooks.example.test/portcullis");
    expect(list.text).not.toContain(res.body.callbackSecret!);
    const plain = await apiRequest<TCreatedSession>(base, "/api/v1/sessions", { token: user.token, body: { agentId: "plain", tools: ["shop__*"] } });
    expect(plain.body).toMatchObject({ callbackUrl: null, callbackSecret: null });
  });

  it("rules: 422 with details for an invalid rule, 201, GET lists it, it is enforced on /mcp; DELETE removes it; history reverts it", async () => {
    const rules = "/api/v1/tools/shop__whoami/rules";
    const bad = await apiRequest<ApiErrorBody>(base, rules, { token: admin.token, body: { kind: "value", argument: "n", min: 5, max: 1 } });
    expectError(bad, 422, "validation_failed");
    expect(bad.body.error.details?.some((d) => /min cannot exceed max/.test(d.message))).toBe(true);
    expectError(await apiRequest(base, rules, { token: admin.token, body: { kind: "value", argument: "n", pattern: "([" } }), 422, "validation_failed");
    expectError(await apiRequest(base, "/api/v1/tools/shop__nope/rules", { token: admin.token, body: { kind: "row_cap", argument: "limit", max: 5 } }), 404, "not_found");
    const created = await apiRequest<TRule>(base, rules, { token: admin.token, body: { kind: "value", argument: "status", enum: ["open"] } });
    expect(created.status, created.text).toBe(201);
    expect((await apiRequest<{ items: TRule[] }>(base, rules, { token: admin.token })).body.items.map((r) => r.id)).toEqual([created.body.id]);

    const session = await apiRequest<TCreatedSession>(base, "/api/v1/sessions", { token: user.token, body: { agentId: "bot", tools: ["shop__whoami"] } });
    const client = await mcpClient(session.body.token);
    const denied = await client.callTool({ name: "shop__whoami", arguments: { status: "closed" } });
    expect(errorMeta(denied)).toMatchObject({ code: "policy_denied" });
    expect((await client.callTool({ name: "shop__whoami", arguments: { status: "open" } })).isError ?? false).toBe(false);

    const sim = await apiRequest<TDecision>(base, "/api/v1/policy/simulate", { token: admin.token, body: { tool: "shop__whoami", arguments: { status: "closed" }, sessionId: session.body.id } });
    expect(sim.body).toMatchObject({ decision: "deny", step: "rule", code: "policy_denied", ruleId: created.body.id });
    expectError(await apiRequest(base, "/api/v1/policy/simulate", { token: admin.token, body: { tool: "shop__whoami", arguments: {} } }), 422, "validation_failed");

    const del = await apiRequest<TRule>(base, `${rules}/${created.body.id}`, { token: admin.token, method: "DELETE" });
    expect(del.status, del.text).toBe(200);
    expect((await client.callTool({ name: "shop__whoami", arguments: { status: "closed" } })).isError ?? false).toBe(false);
    const history = await apiRequest<{ items: TPolicyChange[] }>(base, "/api/v1/policy/history?tool=shop__whoami", { token: admin.token });
    const deletion = history.body.items.find((c) => c.entityType === "rule" && c.action === "deleted")!;
    const reverted = await apiRequest<TPolicyChange>(base, `/api/v1/policy/history/${deletion.id}/revert`, { token: admin.token, method: "POST" });
    expect(reverted.status, reverted.text).toBe(200);
    expect(reverted.body).toMatchObject({ entityType: "rule", action: "created", revertOf: deletion.id });
    expect(errorMeta(await client.callTool({ name: "shop__whoami", arguments: { status: "closed" } }))).toMatchObject({ code: "policy_denied" });
    // The rule it created earlier is gone (deleted above): reverting that creation now conflicts.
    const creation = history.body.items.find((c) => c.entityType === "rule" && c.action === "created")!;
    expectError(await apiRequest(base, `/api/v1/policy/history/${creation.id}/revert`, { token: admin.token, method: "POST" }), 409, "conflict");
  });

  it("the SQL read-only rule runs inside the app (PostgreSQL's parser loads there): the simulator denies a write, allows a read", async () => {
    const rule = await apiRequest<TRule>(base, "/api/v1/tools/shop__fail/rules", { token: admin.token, body: { kind: "sql_readonly", argument: "sql" } });
    expect(rule.status, rule.text).toBe(201);
    const simulate = (sql: string) => apiRequest<TDecision>(base, "/api/v1/policy/simulate", { token: admin.token, body: { tool: "shop__fail", arguments: { sql }, userId: admin.id } });
    const write = await simulate("WITH x AS (DELETE FROM orders RETURNING *) SELECT * FROM x");
    expect(write.body, write.text).toMatchObject({ decision: "deny", step: "rule", ruleId: rule.body.id });
    expect(write.body.reason).toMatch(/read-only/);
    expect((await simulate("SELECT id FROM orders LIMIT 3")).body).toMatchObject({ decision: "allow", step: "allow" });
  });

  it("tiers: bulk change to HIGH holds the next call for approval, and shows in /policy/tools and history", async () => {
    const session = await apiRequest<TCreatedSession>(base, "/api/v1/sessions", { token: user.token, body: { agentId: "bot", tools: ["shop__counted"] } });
    const client = await mcpClient(session.body.token);
    expect((await client.callTool({ name: "shop__counted", arguments: { name: "x" } })).isError ?? false).toBe(false);
    const res = await apiRequest<{ items: TPolicyTool[] }>(base, "/api/v1/policy/tiers", { token: admin.token, body: { tools: ["shop__counted", "shop__whoami"], riskTier: "HIGH" } });
    expect(res.status, res.text).toBe(200);
    expect(res.body.items.find((t) => t.name === "shop__counted")).toMatchObject({ riskTier: "HIGH", tierOverride: true });
    const held = await client.callTool({ name: "shop__counted", arguments: { name: "x" } });
    expect(held.isError ?? false).toBe(false);
    expect(held.structuredContent).toMatchObject({ status: "AWAITING_APPROVAL", approval_status: "PENDING", approval_id: expect.any(String) as string });
    expectError(await apiRequest(base, "/api/v1/policy/tiers", { token: admin.token, body: { tools: ["shop__nope"], riskTier: "LOW" } }), 404, "not_found");
    const history = await apiRequest<{ items: TPolicyChange[] }>(base, "/api/v1/policy/history", { token: admin.token });
    expect(history.body.items[0]).toMatchObject({ entityType: "tool_tier", after: { tier: "HIGH" } });
    expect(history.body.items[0]!.summary).toMatch(/→ HIGH/);
  });

  it("DELETE /api/v1/sessions/{id}: 403 for someone else's, 200 for the owner; the token then gets 401; settings: PATCH is for admins", async () => {
    const session = await apiRequest<TCreatedSession>(base, "/api/v1/sessions", { token: admin.token, body: { agentId: "ops", tools: ["*"] } });
    expectError(await apiRequest(base, `/api/v1/sessions/${session.body.id}`, { token: user.token, method: "DELETE" }), 403, "forbidden");
    const client = await mcpClient(session.body.token);
    const del = await apiRequest<TAgentSession>(base, `/api/v1/sessions/${session.body.id}`, { token: admin.token, method: "DELETE" });
    expect(del.body).toMatchObject({ status: "revoked" });
    await expect(client.listTools()).rejects.toThrow(/revoked/);

    expectError(await apiRequest(base, "/api/v1/settings/sessions", { token: user.token, method: "PATCH", body: { defaultTtlSeconds: 60, maxTtlSeconds: 120 } }), 403, "forbidden");
    expectError(await apiRequest(base, "/api/v1/settings/sessions", { token: admin.token, method: "PATCH", body: { defaultTtlSeconds: 600, maxTtlSeconds: 120 } }), 422, "validation_failed");
    const ok = await apiRequest(base, "/api/v1/settings/sessions", { token: admin.token, method: "PATCH", body: { defaultTtlSeconds: 600, maxTtlSeconds: 7200 } });
    expect(ok.body).toEqual({ defaultTtlSeconds: 600, maxTtlSeconds: 7200 });
    expectError(await apiRequest(base, "/api/v1/sessions", { token: admin.token, body: { agentId: "x", tools: ["*"], ttlSeconds: 7201 } }), 422, "validation_failed");
  });

  it("GET /api/v1/grants, /policy/history, /sessions, /codemode/types – query parameters are read with the contract's schemas: a bad value is a 422, not ignored", async () => {
    expectError(await apiRequest(base, "/api/v1/grants?role=OWNER", { token: admin.token }), 422, "validation_failed");
    expectError(await apiRequest(base, "/api/v1/policy/history?limit=0", { token: admin.token }), 422, "validation_failed");
    expectError(await apiRequest(base, "/api/v1/sessions?all=yes", { token: admin.token }), 422, "validation_failed");
    const grants = await apiRequest<{ items: TGrant[] }>(base, "/api/v1/grants?role=USER", { token: admin.token });
    expect(grants.status, grants.text).toBe(200);
    expect(grants.body.items.every((g) => g.role === "USER")).toBe(true);
    const page = await apiRequest<{ items: TPolicyChange[] }>(base, "/api/v1/policy/history?limit=1", { token: admin.token });
    expect(page.body.items).toHaveLength(1);
    const types = await apiRequest<{ toolCount: number }>(base, "/api/v1/codemode/types?agentSessionId=", { token: admin.token });
    expect(types.status, types.text).toBe(200);
  });
});
