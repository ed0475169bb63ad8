// GET /metrics and GET /api/v1/dashboard on the real app (`portcullis start`): who may scrape (METRICS_TOKEN,
// else an admin), that the scrape sees the calls the app's own /mcp made (the route and the pipeline share one
// registry whichever bundle loaded them), and the dashboard's numbers and scoping over seeded audit events.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { TDashboard } from "@/lib/dashboard-schemas";
import type { TCreatedSession } from "@/lib/policy-schemas";
import {
  connectAgent,
  firstText,
  grantEverything,
  misbehavingServer,
  userWithApiToken,
  waitUntil,
  type Agent,
} from "@/server/test/gateway-harness";
import { parsePromText, sampleValue } from "@/server/test/prom-text";
import { createTestDb, testDatabaseUrl, truncateAll } from "@/server/test/test-db";
import { apiRequest, type ApiErrorBody, type ApiResponse } from "@/scripts/test-support/api-request";
import { startApp, stopAllApps } from "@/scripts/test-support/start-app";
import { makeTempDir, removeTempDirs } from "@/scripts/test-support/temp-dir";

const METRICS_TOKEN = "scrape-token-0123456789abcdef";

function expectError(res: ApiResponse, status: number, code: string) {
  expect({ status: res.status, code: (res.body as ApiErrorBody | undefined)?.error?.code }, res.text).toEqual({
    status,
    code,
  });
}

describe("GET /metrics and GET /api/v1/dashboard", () => {
  const db = createTestDb();
  let base = "";
  const admin = { token: "", id: "" };
  const user = { token: "", id: "" };
  let agent: Agent | undefined;

  const scrape = (headers: Record<string, string> = {}) => apiRequest(base, "/metrics", { headers });
  const dashboard = (token: string, query = "") => apiRequest<TDashboard>(base, `/api/v1/dashboard${query}`, { token });

  beforeAll(async () => {
    await truncateAll(db);
    for (const [who, role] of [
      [admin, "ADMIN"],
      [user, "USER"],
    ] as const) {
      const u = await userWithApiToken(db, role);
      Object.assign(who, { token: u.token, id: u.user.id });
    }
    await grantEverything(db, admin.id);
    // Seeded traffic of the last minutes: the admin's and the user's calls.
    const at = (minutesAgo: number) => new Date(Date.now() - minutesAgo * 60_000);
    const event = (userId: string, minutesAgo: number, toolName: string, status: string, durationMs: number) => ({
      occurredAt: at(minutesAgo),
      action: "tool.called",
      category: status === "denied" ? "security" : "gateway",
      userId,
      endpoint: "mcp",
      serverSlug: toolName.split("__")[0]!,
      toolName,
      decision: status === "denied" ? "deny" : "allow",
      status,
      durationMs,
    });
    await db.auditEvent.createMany({
      data: [
        event(admin.id, 2, "seed__read", "ok", 10),
        event(admin.id, 2, "seed__read", "ok", 20),
        event(admin.id, 1, "seed__read", "error", 30),
        event(admin.id, 1, "seed__write", "denied", 1),
        event(user.id, 3, "seed__write", "ok", 400),
        event(user.id, 90, "seed__read", "ok", 5), // outside a 15-minute window
        { ...event(admin.id, 1, "x", "ok", 1), action: "user.created", toolName: null }, // not a tool call
      ],
    });
    const app = await startApp({
      env: {
        DATABASE_URL: testDatabaseUrl(),
        DATA_DIR: await makeTempDir("metrics-api"),
        PORTCULLIS_NO_DEMO: "1",
        METRICS_TOKEN,
      },
    });
    base = app.baseUrl;
  });

  afterAll(async () => {
    await agent?.close();
    await stopAllApps();
    await removeTempDirs();
    await db.$disconnect();
  });

  it("GET /metrics – 401 without credentials or with a wrong token, 403 for a user's API token", async () => {
    expectError(await scrape(), 401, "unauthenticated");
    expectError(await scrape({ authorization: `Bearer ${METRICS_TOKEN}x` }), 401, "invalid_token");
    expectError(await scrape({ authorization: `Basic ${METRICS_TOKEN}` }), 401, "invalid_token");
    expectError(await scrape({ authorization: `Bearer ${user.token}` }), 403, "forbidden");
    // A spoofed client address buys nothing: there is no network allowance.
    expectError(await scrape({ "x-forwarded-for": "127.0.0.1" }), 401, "unauthenticated");
  });

  it("GET /metrics – the scrape token and an admin's API token both get the Prometheus text", async () => {
    for (const token of [METRICS_TOKEN, admin.token]) {
      const res = await scrape({ authorization: `Bearer ${token}` });
      expect(res.status, res.text).toBe(200);
      expect(res.headers.get("content-type")).toMatch(/^text\/plain; version=0\.0\.4/);
      expect(res.headers.get("cache-control")).toBe("no-store");
      expect(res.text).toContain("# TYPE portcullis_tool_calls_total counter");
      expect(res.text).toContain("# TYPE portcullis_tool_call_duration_seconds histogram");
      const samples = parsePromText(res.text);
      expect(sampleValue(samples, "portcullis_metrics_state_up")).toBe(1);
      expect(sampleValue(samples, "portcullis_approvals_pending")).toBe(0);
      expect(sampleValue(samples, "portcullis_task_queue_depth", { status: "PENDING" })).toBe(0);
      expect(sampleValue(samples, "process_resident_memory_bytes")).toBeGreaterThan(0);
    }
  });

  it("GET /metrics – counts a call an agent made through the app's /mcp, with the upstream's status and circuit", async () => {
    const dir = await makeTempDir("metrics-ops");
    const created = await apiRequest(base, "/api/v1/servers", {
      token: admin.token,
      body: misbehavingServer(dir, { slug: "ops" }),
    });
    expect(created.status, created.text).toBe(201);
    const session = await apiRequest<TCreatedSession>(base, "/api/v1/sessions", {
      token: admin.token,
      body: { agentId: "metrics-bot", tools: ["ops__*"] },
    });
    expect(session.status, session.text).toBe(201);
    agent = await connectAgent(new URL("/mcp", base), session.body.token);
    for (let i = 0; i < 2; i++)
      expect(firstText(await agent.client.callTool({ name: "ops__whoami", arguments: {} }))).toMatch(/"variant"/);

    const res = await scrape({ authorization: `Bearer ${METRICS_TOKEN}` });
    const samples = parsePromText(res.text);
    expect(
      sampleValue(samples, "portcullis_tool_calls_total", {
        endpoint: "mcp",
        tool: "ops__whoami",
        status: "ok",
        decision: "allow",
      }),
    ).toBe(2);
    expect(
      sampleValue(samples, "portcullis_tool_call_duration_seconds_count", { endpoint: "mcp", tool: "ops__whoami" }),
    ).toBe(2);
    expect(sampleValue(samples, "portcullis_upstream_status", { server: "ops", status: "HEALTHY" })).toBe(1);
    expect(
      sampleValue(samples, "portcullis_upstream_circuit_state", { server: "ops", role: "active", state: "closed" }),
    ).toBe(1);
    // The calls' outcomes are written just after their answers (AUDIT_OUTCOME=after_answer): the writer's
    // pending rows reach 0 once they are committed.
    await waitUntil("the calls' audit outcomes to be committed", async () =>
      sampleValue(parsePromText((await scrape({ authorization: `Bearer ${METRICS_TOKEN}` })).text), "portcullis_audit_write_pending_rows") === 0,
    );
  });

  it("GET /api/v1/dashboard – 401 without a token, 422 for a bad window", async () => {
    expectError(await apiRequest(base, "/api/v1/dashboard"), 401, "unauthenticated");
    expectError(await dashboard(admin.token, "?window=0"), 422, "validation_failed");
    expectError(await dashboard(admin.token, "?window=2000"), 422, "validation_failed");
    expectError(await dashboard(admin.token, "?window=soon"), 422, "validation_failed");
  });

  it("GET /api/v1/dashboard – an admin sees every caller's calls of the window", async () => {
    const res = await dashboard(admin.token, "?window=15");
    expect(res.status, res.text).toBe(200);
    const d = res.body;
    expect(d).toMatchObject({
      windowMinutes: 15,
      scope: "all",
      pendingApprovals: { count: 0, oldestAt: null },
      unhealthyServers: [],
    });
    // 5 seeded calls in the window plus the agent's 2 calls to ops__whoami.
    expect(d.totals).toMatchObject({ calls: 7, errors: 1, denials: 1, held: 0 });
    expect(d.totals.errorRate).toBeCloseTo(1 / 7, 5);
    expect(d.series).toHaveLength(15);
    expect(d.series.reduce((n, p) => n + p.calls, 0)).toBe(7);
    expect(d.topTools.slice(0, 2)).toEqual([
      expect.objectContaining({ tool: "seed__read", calls: 3, errors: 1, denials: 0, p95Ms: 29 }),
      expect.objectContaining({ tool: "ops__whoami", calls: 2 }),
    ]);
    expect(d.topTools.find((t) => t.tool === "seed__write")).toMatchObject({ calls: 2, denials: 1 });
    const wide = await dashboard(admin.token, "?window=120");
    expect(wide.body.totals.calls).toBe(8);
    expect((await dashboard(admin.token)).body.windowMinutes).toBe(60);
  });

  it("GET /api/v1/dashboard – a user sees only their own calls", async () => {
    const res = await dashboard(user.token, "?window=15");
    expect(res.status, res.text).toBe(200);
    expect(res.body.scope).toBe("mine");
    expect(res.body.totals).toMatchObject({ calls: 1, errors: 0, denials: 0, p95Ms: 400 });
    expect(res.body.topTools).toEqual([expect.objectContaining({ tool: "seed__write", calls: 1 })]);
  });
});
