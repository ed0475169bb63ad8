// The servers and tools REST API over real HTTP: one `portcullis start` process on the run's PostgreSQL with a
// misbehaving fixture registered through POST /api/v1/servers; GET one tool, rate-limit overrides.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { TServer, TServerWithTools, TToolSummary } from "@/lib/schemas";
import { misbehavingServer, tempDir, removeTempDirs, userWithApiToken, waitUntil } from "@/server/test/gateway-harness";
import { createTestDb, testDatabaseUrl, truncateAll } from "@/server/test/test-db";
import { apiRequest, type ApiErrorBody, type ApiResponse } from "@/scripts/test-support/api-request";
import { startApp, stopAllApps } from "@/scripts/test-support/start-app";
import { makeTempDir, removeTempDirs as removeDataDirs } from "@/scripts/test-support/temp-dir";

function expectError(res: ApiResponse, status: number, code: string) {
  expect({ status: res.status, code: (res.body as ApiErrorBody | undefined)?.error?.code }, res.text).toEqual({
    status,
    code,
  });
}

describe("REST API /api/v1/tools and /api/v1/servers", () => {
  const db = createTestDb();
  let base = "";
  const admin = { token: "" };
  const user = { token: "" };
  const tool = (name: string) => `/api/v1/tools/${encodeURIComponent(name)}`;

  beforeAll(async () => {
    await truncateAll(db);
    admin.token = (await userWithApiToken(db, "ADMIN")).token;
    user.token = (await userWithApiToken(db, "USER")).token;
    const app = await startApp({
      env: { DATABASE_URL: testDatabaseUrl(), DATA_DIR: await makeTempDir("tools-api"), PORTCULLIS_NO_DEMO: "1" },
    });
    base = app.baseUrl;
    const res = await apiRequest<TServerWithTools>(base, "/api/v1/servers", {
      ...admin,
      body: misbehavingServer(await tempDir("tools-api"), { slug: "limits" }),
    });
    if (res.status !== 201 || res.body.server.status !== "HEALTHY")
      throw new Error(`POST /api/v1/servers: ${res.text}`);
  });

  afterAll(async () => {
    await stopAllApps();
    await removeDataDirs();
    await removeTempDirs();
    await db.$disconnect();
  });

  it("GET /api/v1/tools/{name} – 200 one tool with its schema, lint findings, tier and settings", async () => {
    const res = await apiRequest<TToolSummary>(base, tool("limits__counted"), admin);
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({ name: "limits__counted", server: "limits", rateLimitPerMinute: null });
    expect(res.body.inputSchema).toMatchObject({ type: "object" });
    // The same tool as in the list, field for field.
    const list = await apiRequest<{ items: TToolSummary[] }>(base, "/api/v1/tools", admin);
    expect(res.body).toEqual(list.body.items.find((t) => t.name === "limits__counted"));
  });

  it("GET /api/v1/tools/{name} – 404 not_found for an unknown tool", async () => {
    expectError(await apiRequest(base, tool("limits__nope"), admin), 404, "not_found");
    expectError(await apiRequest(base, tool("nobody__counted"), admin), 404, "not_found");
  });

  it("GET /api/v1/tools/{name} – 403 forbidden for a USER", async () => {
    expectError(await apiRequest(base, tool("limits__counted"), user), 403, "forbidden");
  });

  it("PATCH /api/v1/tools/{name} – 200 sets rateLimitPerMinute, and null clears it", async () => {
    const set = await apiRequest<TToolSummary>(base, tool("limits__counted"), {
      ...admin,
      method: "PATCH",
      body: { rateLimitPerMinute: 30 },
    });
    expect(set.status, set.text).toBe(200);
    expect(set.body.rateLimitPerMinute).toBe(30);
    expect((await apiRequest<TToolSummary>(base, tool("limits__counted"), admin)).body.rateLimitPerMinute).toBe(30);

    const cleared = await apiRequest<TToolSummary>(base, tool("limits__counted"), {
      ...admin,
      method: "PATCH",
      body: { rateLimitPerMinute: null },
    });
    expect(cleared.body.rateLimitPerMinute).toBeNull();
  });

  it("PATCH /api/v1/tools/{name} – 422 validation_failed naming rateLimitPerMinute for 0", async () => {
    const res = await apiRequest<ApiErrorBody>(base, tool("limits__counted"), {
      ...admin,
      method: "PATCH",
      body: { rateLimitPerMinute: 0 },
    });
    expectError(res, 422, "validation_failed");
    expect(res.body.error.details?.map((d) => d.path)).toEqual(["rateLimitPerMinute"]);
  });

  it("PATCH /api/v1/tools/{name} – 200 sets exampleRequests trimmed, [] clears them; 422 names each bad request by rule and keeps what was stored", async () => {
    const patch = (body: unknown) => apiRequest<TToolSummary & ApiErrorBody>(base, tool("limits__counted"), { ...admin, method: "PATCH", body });
    const set = await patch({ exampleRequests: ["  how many times was it called?  ", "count my calls"] });
    expect(set.status, set.text).toBe(200);
    expect(set.body.exampleRequests).toEqual(["how many times was it called?", "count my calls"]);
    expect(set.body.shippedExampleRequests).toEqual([]); // a fixture, no known package's tool

    const cases: [unknown, { path: string; code: string }[]][] = [
      [["count my calls", "COUNT  my calls"], [{ path: "exampleRequests.1", code: "example_duplicate" }]],
      // NUL and lone surrogates are refused for any field before the schema (PostgreSQL cannot store them).
      [["nul \u0000 inside"], [{ path: "exampleRequests.0", code: "unstorable_text" }]],
      [["two\nlines"], [{ path: "exampleRequests.0", code: "example_control_character" }]],
      [["lone \ud800 surrogate"], [{ path: "exampleRequests.0", code: "unstorable_text" }]],
      [["ok request", "x".repeat(201)], [{ path: "exampleRequests.1", code: "example_too_long" }]],
      [["  a "], [{ path: "exampleRequests.0", code: "example_too_short" }]],
      [Array.from({ length: 11 }, (_, i) => `request number ${String(i)}`), [{ path: "exampleRequests", code: "examples_too_many" }]],
    ];
    for (const [exampleRequests, details] of cases) {
      const res = await patch({ exampleRequests });
      expectError(res, 422, "validation_failed");
      expect(res.body.error.details?.map((d) => ({ path: d.path, code: (d as { code?: string }).code })), JSON.stringify(exampleRequests)).toEqual(details);
    }
    expectError(await patch({ exampleRequests: "one string" }), 422, "validation_failed");
    expect((await apiRequest<TToolSummary>(base, tool("limits__counted"), admin)).body.exampleRequests).toEqual(["how many times was it called?", "count my calls"]);

    const cleared = await patch({ exampleRequests: [] });
    expect(cleared.status, cleared.text).toBe(200);
    expect(cleared.body.exampleRequests).toEqual([]);
    expectError(await apiRequest(base, tool("limits__counted"), { ...user, method: "PATCH", body: { exampleRequests: ["count my calls"] } }), 403, "forbidden");
  });

  it("PATCH /api/v1/servers/{slug} – 200 sets rateLimitPerMinute on the server; 422 for a fraction", async () => {
    const res = await apiRequest<TServerWithTools>(base, "/api/v1/servers/limits", {
      ...admin,
      method: "PATCH",
      body: { rateLimitPerMinute: 120 },
    });
    expect(res.status, res.text).toBe(200);
    expect(res.body.server.rateLimitPerMinute).toBe(120);
    // The tools keep their own (none): the server's value is the default they inherit.
    expect(res.body.tools.every((t) => t.rateLimitPerMinute === null)).toBe(true);
    const bad = await apiRequest(base, "/api/v1/servers/limits", {
      ...admin,
      method: "PATCH",
      body: { rateLimitPerMinute: 1.5 },
    });
    expectError(bad, 422, "validation_failed");
  });

  it("GET /api/v1/openapi.json – documents GET /api/v1/tools/{name} and the rate-limit fields", async () => {
    const res = await apiRequest<{
      paths: Record<string, Record<string, unknown>>;
      components: { schemas: Record<string, { properties?: Record<string, unknown> }> };
    }>(base, "/api/v1/openapi.json");
    expect(res.status).toBe(200);
    expect(Object.keys(res.body.paths["/api/v1/tools/{name}"] ?? {}).sort()).toEqual(["get", "patch"]);
    for (const id of ["Tool", "Server", "UpdateTool", "UpdateServer"]) {
      expect(res.body.components.schemas[id]?.properties, id).toHaveProperty("rateLimitPerMinute");
    }
  });
  it("GET /api/v1/servers/{slug}/offerings – the serving version's resources, templates and prompts and the endpoints; 404 for an unknown server", async () => {
    const res = await apiRequest<{ version: string; endpoints: { aggregate: string; transparent: string }; resources: unknown[]; prompts: unknown[] }>(
      base,
      "/api/v1/servers/limits/offerings",
      admin,
    );
    expect(res.status, res.text).toBe(200);
    expect(res.body.endpoints).toEqual({ aggregate: "/mcp", transparent: "/mcp/s/limits" });
    expect(res.body.version).toMatch(/^\d+\.\d+\.\d+$/);
    expect(Array.isArray(res.body.resources) && Array.isArray(res.body.prompts)).toBe(true);
    expectError(await apiRequest(base, "/api/v1/servers/nope/offerings", admin), 404, "not_found");
    expectError(await apiRequest(base, "/api/v1/servers/limits/offerings", user), 403, "forbidden");
  });
  it("GET /api/v1/servers/{slug} – counts the last hour's calls with their median duration and failures", async () => {
    const call = await apiRequest(base, `${tool("limits__fail")}/call`, { ...admin, body: { arguments: {} } });
    expect(call.status, call.text).toBe(200);
    // The call's outcome (its failure and duration) completes its audit record after the answer (D82, D165).
    const res = await waitUntil("the failed call counted", async () => {
      const r = await apiRequest<TServerWithTools>(base, "/api/v1/servers/limits", admin);
      expect(r.status, r.text).toBe(200);
      return r.body.server.calls.errors >= 1 ? r : undefined;
    });
    expect(res.body.server.calls.count).toBeGreaterThanOrEqual(1);
    expect(typeof res.body.server.calls.p50Ms).toBe("number");
  });

  // The gateway's own tools: a built-in server made at start-up, shown and set like any other.
  const builtinListed = () =>
    waitUntil("the built-in server to be listed", async () => {
      const res = await apiRequest<{ items: TServer[] }>(base, "/api/v1/servers", admin);
      return res.body.items.find((s) => s.slug === "portcullis");
    });

  it("GET /api/v1/servers – lists the built-in server portcullis, and GET /api/v1/tools its tools as portcullis__<tool>", async () => {
    expect(await builtinListed()).toMatchObject({ slug: "portcullis", transport: "builtin", status: "HEALTHY", enabled: true, isolation: null, toolCount: 9 });
    const tools = await apiRequest<{ items: TToolSummary[] }>(base, "/api/v1/tools", admin);
    expect(tools.body.items.filter((t) => t.server === "portcullis").map((t) => [t.name, t.riskTier])).toEqual([
      ["portcullis__browse_catalog", "LOW"],
      ["portcullis__cancel_task", "MEDIUM"],
      ["portcullis__execute_code", "MEDIUM"],
      ["portcullis__get_approval_status", "LOW"],
      ["portcullis__get_task_result", "LOW"],
      ["portcullis__get_task_status", "LOW"],
      ["portcullis__list_my_tasks", "LOW"],
      ["portcullis__request_approval", "MEDIUM"],
      ["portcullis__search_tools", "LOW"],
    ]);
  });

  it("PATCH /api/v1/tools/portcullis__get_task_status – 200 sets its rate limit and tier like any tool's", async () => {
    await builtinListed();
    const res = await apiRequest<TToolSummary>(base, tool("portcullis__get_task_status"), { ...admin, method: "PATCH", body: { rateLimitPerMinute: 30, riskTier: "MEDIUM" } });
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({ name: "portcullis__get_task_status", server: "portcullis", rateLimitPerMinute: 30, riskTier: "MEDIUM" });
  });

  it("POST /api/v1/servers – 409 slug_reserved for the slug portcullis", async () => {
    await builtinListed();
    const res = await apiRequest(base, "/api/v1/servers", { ...admin, body: misbehavingServer(await tempDir("tools-api"), { slug: "portcullis" }) });
    expectError(res, 409, "slug_reserved");
  });

  it("DELETE /api/v1/servers/portcullis – 409 builtin_server, and it stays", async () => {
    await builtinListed();
    expectError(await apiRequest(base, "/api/v1/servers/portcullis", { ...admin, method: "DELETE" }), 409, "builtin_server");
    expectError(await apiRequest(base, "/api/v1/servers/portcullis", { ...admin, method: "PATCH", body: { enabled: false } }), 409, "builtin_server");
    expect(await builtinListed()).toMatchObject({ enabled: true });
  });
});
