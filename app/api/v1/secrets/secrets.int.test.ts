// The secrets REST API over HTTP on the real app: admins only; 201 on create and 200 on replace; listings with
// names, dates and usedBy but never a value; 404 for an absent name, 409 while a server references it, 422 for
// what the schema refuses; and no value in the database rows or the audit log.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { TSecret, TSecretList } from "@/lib/secret-schemas";
import { userWithApiToken } from "@/server/test/gateway-harness";
import { createTestDb, testDatabaseUrl, truncateAll } from "@/server/test/test-db";
import { apiRequest, type ApiErrorBody, type ApiResponse } from "@/scripts/test-support/api-request";
import { startApp, stopAllApps } from "@/scripts/test-support/start-app";
import { makeTempDir, removeTempDirs } from "@/scripts/test-support/temp-dir";

const PATH = "/api/v1/secrets";
const VALUE = "rest-planted-secret-9d2e7a";

function expectError(res: ApiResponse, status: number, code: string) {
  expect({ status: res.status, code: (res.body as ApiErrorBody | undefined)?.error?.code }, res.text).toEqual({ status, code });
}

const details = (res: ApiResponse) => (res.body as ApiErrorBody).error.details ?? [];

describe("REST API: secrets", () => {
  const db = createTestDb();
  let base = "";
  const admin = { token: "", id: "" };
  const user = { token: "" };

  const put = (body: unknown, token = admin.token) => apiRequest<TSecret>(base, PATH, { method: "POST", token, body });
  const list = () => apiRequest<TSecretList>(base, PATH, { token: admin.token });
  const del = (name: string, token = admin.token) => apiRequest<TSecret>(base, `${PATH}/${encodeURIComponent(name)}`, { method: "DELETE", token });

  beforeAll(async () => {
    await truncateAll(db);
    const a = await userWithApiToken(db, "ADMIN");
    Object.assign(admin, { token: a.token, id: a.user.id });
    user.token = (await userWithApiToken(db, "USER")).token;
    const app = await startApp({
      env: { DATABASE_URL: testDatabaseUrl(), DATA_DIR: await makeTempDir("secrets-api"), PORTCULLIS_NO_DEMO: "1" },
    });
    base = app.baseUrl;
  });

  afterAll(async () => {
    await stopAllApps();
    await removeTempDirs();
    await db.$disconnect();
  });

  it("401 without a token, 403 for a user who is not an admin", async () => {
    expectError(await apiRequest(base, PATH), 401, "unauthenticated");
    expectError(await apiRequest(base, PATH, { token: user.token }), 403, "forbidden");
    expectError(await put({ name: "X_TOKEN", value: "v" }, user.token), 403, "forbidden");
    expectError(await del("X_TOKEN", user.token), 403, "forbidden");
    expect(await db.secret.count()).toBe(0);
  });

  it("POST /api/v1/secrets – 201 on create, 200 on replace, with names and dates only", async () => {
    const created = await put({ name: "DB_PASSWORD", value: VALUE });
    expect(created.status, created.text).toBe(201);
    expect(created.body).toEqual({ name: "DB_PASSWORD", createdAt: expect.any(String) as string, updatedAt: expect.any(String) as string, usedBy: [] });
    expect(created.text).not.toContain(VALUE);

    const replaced = await put({ name: "DB_PASSWORD", value: `${VALUE}-2` });
    expect(replaced.status, replaced.text).toBe(200);
    expect(replaced.body.createdAt).toBe(created.body.createdAt);
    expect(Date.parse(replaced.body.updatedAt)).toBeGreaterThanOrEqual(Date.parse(created.body.updatedAt));
    expect(replaced.text).not.toContain(VALUE);

    const events = await db.auditEvent.findMany({ where: { action: { startsWith: "secret." } }, orderBy: { id: "asc" } });
    expect(events.map((e) => [e.action, e.userId, e.details])).toEqual([
      ["secret.created", admin.id, { name: "DB_PASSWORD" }],
      ["secret.updated", admin.id, { name: "DB_PASSWORD" }],
    ]);
  });

  it("GET /api/v1/secrets – lists names, dates and usedBy, never a value", async () => {
    await put({ name: "API_TOKEN", value: VALUE });
    await db.upstreamServer.create({ data: { slug: "crm", name: "CRM", transport: "HTTP", url: "http://127.0.0.1:9/mcp", enabled: false, headers: { authorization: "Bearer ${secret:API_TOKEN}" } } });
    const res = await list();
    expect(res.status, res.text).toBe(200);
    expect(res.body.items.map((s) => [s.name, s.usedBy])).toEqual([
      ["API_TOKEN", ["crm"]],
      ["DB_PASSWORD", []],
    ]);
    for (const item of res.body.items) expect(Object.keys(item).sort()).toEqual(["createdAt", "name", "updatedAt", "usedBy"]);
    expect(res.text).not.toContain(VALUE);
  });

  it("DELETE /api/v1/secrets/{name} – 409 secret_in_use naming the server, 404 when absent, 200 with the deleted item", async () => {
    const inUse = await del("API_TOKEN");
    expectError(inUse, 409, "secret_in_use");
    expect((inUse.body as unknown as ApiErrorBody).error.message).toContain("The secret API_TOKEN is used by the server crm");

    expectError(await del("NOT_THERE"), 404, "not_found");
    expectError(await del("lower-case"), 404, "not_found");

    const gone = await del("DB_PASSWORD");
    expect(gone.status, gone.text).toBe(200);
    expect(gone.body).toMatchObject({ name: "DB_PASSWORD", usedBy: [] });
    expectError(await del("DB_PASSWORD"), 404, "not_found");
    expect((await list()).body.items.map((s) => s.name)).toEqual(["API_TOKEN"]);
    expect(await db.auditEvent.count({ where: { action: "secret.deleted" } })).toBe(1);
  });

  it("POST – 422 validation_failed for a bad name, an empty or too long value, or unknown fields; 400 for a body that is not JSON", async () => {
    const badName = await put({ name: "db-password", value: "v" });
    expectError(badName, 422, "validation_failed");
    expect(details(badName).map((d) => d.path)).toEqual(["name"]);
    expectError(await put({ name: "1ST", value: "v" }), 422, "validation_failed");
    expectError(await put({ name: `A${"B".repeat(64)}`, value: "v" }), 422, "validation_failed");
    const empty = await put({ name: "EMPTY", value: "" });
    expectError(empty, 422, "validation_failed");
    expect(details(empty).map((d) => d.path)).toEqual(["value"]);
    expectError(await put({ name: "TOO_LONG", value: "x".repeat(16_385) }), 422, "validation_failed");
    expectError(await put({ name: "MISSING_VALUE" }), 422, "validation_failed");
    expectError(await put({ name: "EXTRA", value: "v", reveal: true }), 422, "validation_failed");
    expectError(await put("{not json"), 400, "invalid_json");
    expect((await put({ name: "MAX_SIZE", value: "x".repeat(16_384) })).status).toBe(201);
  });

  it("keeps values out of the database rows and the audit log", async () => {
    const secrets = await db.$queryRaw<{ row: string }[]>`SELECT row_to_json(s)::text AS row FROM secrets s`;
    const audit = await db.$queryRaw<{ row: string }[]>`SELECT row_to_json(a)::text AS row FROM audit_events a`;
    expect(secrets.length).toBeGreaterThan(0);
    expect(audit.length).toBeGreaterThan(0);
    for (const r of [...secrets, ...audit]) expect(r.row).not.toContain(VALUE);
  });
});
