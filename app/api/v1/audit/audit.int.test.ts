// The audit REST API over HTTP on the real app: admins only, filters and keyset pages, 422 for bad filters, the
// event with its story, and the streamed export as CSV and JSON Lines with their content types.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { TAuditEvent, TAuditEventDetail, TAuditPage } from "@/lib/audit-schemas";
import { userWithApiToken } from "@/server/test/gateway-harness";
import { createTestDb, testDatabaseUrl, truncateAll } from "@/server/test/test-db";
import { apiRequest, type ApiErrorBody, type ApiResponse } from "@/scripts/test-support/api-request";
import { startApp, stopAllApps } from "@/scripts/test-support/start-app";
import { makeTempDir, removeTempDirs } from "@/scripts/test-support/temp-dir";

function expectError(res: ApiResponse, status: number, code: string) {
  expect({ status: res.status, code: (res.body as ApiErrorBody | undefined)?.error?.code }, res.text).toEqual({ status, code });
}

const requestIds = (page: TAuditPage) => page.items.map((e) => e.requestId);

describe("REST API: audit", () => {
  const db = createTestDb();
  let base = "";
  const admin = { token: "", id: "", email: "" };
  const user = { token: "", id: "", email: "" };
  const at = (minutesAgo: number) => new Date(Date.now() - minutesAgo * 60_000);
  const get = <T>(path: string, token = admin.token) => apiRequest<T>(base, path, { token });
  // The seeded events are older than this; minting the test users' tokens left newer api_token.created events.
  const before = `to=${encodeURIComponent(at(5).toISOString())}`;

  beforeAll(async () => {
    await truncateAll(db);
    for (const [who, role] of [
      [admin, "ADMIN"],
      [user, "USER"],
    ] as const) {
      const u = await userWithApiToken(db, role);
      Object.assign(who, { token: u.token, id: u.user.id, email: u.user.email });
    }
    await db.auditEvent.createMany({
      data: [
        { occurredAt: at(50), requestId: "a1", action: "tool.called", userId: user.id, agentId: "claude", sessionId: "s1", serverSlug: "orders", toolName: "orders__query", arguments: { sql: "select * from invoices" }, decision: "allow", status: "ok", durationMs: 30 },
        { occurredAt: at(40), requestId: "a2", action: "tool.called", category: "security", userId: user.id, agentId: "claude", sessionId: "s1", serverSlug: "orders", toolName: "orders__refund", arguments: { amount: 5 }, decision: "deny", status: "denied", reason: "not on the whitelist" },
        { occurredAt: at(30), requestId: "a3", action: "tool.called", userId: user.id, agentId: "cursor", sessionId: "s2", serverSlug: "files", toolName: "files__read_file", arguments: { path: "/srv/a,b \"c\".txt" }, decision: "allow", status: "error", errorCode: "upstream_timeout" },
        { occurredAt: at(20), requestId: "a3", action: "approval.requested", userId: user.id, toolName: "files__read_file" },
      ],
    });
    const app = await startApp({ env: { DATABASE_URL: testDatabaseUrl(), DATA_DIR: await makeTempDir("audit-api"), PORTCULLIS_NO_DEMO: "1" } });
    base = app.baseUrl;
  });

  afterAll(async () => {
    await stopAllApps();
    await removeTempDirs();
    await db.$disconnect();
  });

  it("401 without a token and 403 for a non-admin, on every audit route", async () => {
    for (const path of ["/api/v1/audit", "/api/v1/audit/1", "/api/v1/audit/export"]) {
      expectError(await apiRequest(base, path), 401, "unauthenticated");
      expectError(await get(path, user.token), 403, "forbidden");
    }
  });

  it("GET /api/v1/audit – newest first with total and string ids; filters combine", async () => {
    const all = await get<TAuditPage>(`/api/v1/audit?${before}`);
    expect(all.status, all.text).toBe(200);
    expect(requestIds(all.body)).toEqual(["a3", "a3", "a2", "a1"]);
    expect(all.body).toMatchObject({ total: 4, totalIsEstimate: false, nextCursor: null });
    expect(typeof all.body.items[0]!.id).toBe("string");
    expect(all.body.items[0]).toMatchObject({ action: "approval.requested", userEmail: user.email });

    const cases: [string, string[]][] = [
      [`user=${encodeURIComponent(user.email.toUpperCase())}`, ["a3", "a3", "a2", "a1"]],
      [`user=${encodeURIComponent(admin.email)}`, []],
      ["agent=claude", ["a2", "a1"]],
      ["session=s2", ["a3"]],
      ["tool=orders__*", ["a2", "a1"]],
      ["server=files", ["a3"]],
      ["status=denied,error", ["a3", "a2"]],
      ["decision=deny", ["a2"]],
      ["action=approval.*", ["a3"]],
      ["q=INVOICES", ["a1"]],
      ["q=whitelist&status=denied", ["a2"]],
      [`from=${encodeURIComponent(at(45).toISOString())}&to=${encodeURIComponent(at(25).toISOString())}`, ["a3", "a2"]],
      ["sort=occurredAt&tool=orders__*", ["a1", "a2"]],
    ];
    for (const [qs, expected] of cases) {
      const res = await get<TAuditPage>(`/api/v1/audit?${qs}${qs.includes("to=") ? "" : `&${before}`}`);
      expect(res.status, `${qs}: ${res.text}`).toBe(200);
      expect(requestIds(res.body), qs).toEqual(expected);
      expect(res.body.total, qs).toBe(expected.length);
    }
  });

  it("GET /api/v1/audit – pages with the opaque cursor", async () => {
    const first = await get<TAuditPage>(`/api/v1/audit?limit=3&${before}`);
    expect(first.body.items).toHaveLength(3);
    expect(first.body.total).toBe(4);
    const second = await get<TAuditPage>(`/api/v1/audit?limit=3&${before}&cursor=${encodeURIComponent(first.body.nextCursor!)}`);
    expect(requestIds(second.body)).toEqual(["a1"]);
    expect(second.body.nextCursor).toBeNull();
  });

  it("422 for bad filters and a bad cursor, naming the field", async () => {
    for (const [qs, field] of [
      ["status=maybe", "status"],
      ["decision=perhaps", "decision"],
      ["from=yesterday", "from"],
      [`from=${encodeURIComponent(at(1).toISOString())}&to=${encodeURIComponent(at(10).toISOString())}`, "to"],
      ["limit=0", "limit"],
      ["sort=name", "sort"],
      ["cursor=not-a-cursor", "cursor"],
    ] as const) {
      const res = await get(`/api/v1/audit?${qs}`);
      expectError(res, 422, "validation_failed");
      expect((res.body as ApiErrorBody).error.details?.map((d) => d.path), qs).toContain(field);
    }
    expectError(await get("/api/v1/audit/export?format=xml"), 422, "validation_failed");
  });

  it("GET /api/v1/audit/{id} – the event with its request's story; 404 for unknown ids", async () => {
    const page = await get<TAuditPage>("/api/v1/audit?tool=files__read_file&action=tool.called");
    const id = page.body.items[0]!.id;
    const res = await get<TAuditEventDetail>(`/api/v1/audit/${id}`);
    expect(res.status, res.text).toBe(200);
    expect(res.body.event).toMatchObject({ id, requestId: "a3", errorCode: "upstream_timeout" });
    expect(res.body.story.map((e) => e.action)).toEqual(["tool.called", "approval.requested"]);
    expect(res.body).toMatchObject({ approval: null, task: null });
    expectError(await get("/api/v1/audit/99999999"), 404, "not_found");
    expectError(await get("/api/v1/audit/nope"), 404, "not_found");
  });

  it("GET /api/v1/audit/export – CSV attachment with a header row and quoting, for the current filter", async () => {
    const res = await get("/api/v1/audit/export?format=csv&server=files");
    expect(res.status, res.text).toBe(200);
    expect(res.headers.get("content-type")).toBe("text/csv; charset=utf-8");
    expect(res.headers.get("content-disposition")).toMatch(/^attachment; filename="portcullis-audit-[\d-T]+\.csv"$/);
    const lines = res.text.split("\r\n").filter(Boolean);
    expect(lines[0]!.split(",").slice(0, 4)).toEqual(["id", "occurredAt", "requestId", "action"]);
    expect(lines).toHaveLength(2);
    // The arguments as JSON in one quoted field, quotes doubled.
    expect(lines[1]).toContain('"{""path"":""/srv/a,b \\""c\\"".txt""}"');
  });

  it("GET /api/v1/audit/export – JSON Lines, every matching event once, and the export is audited", async () => {
    const res = await get(`/api/v1/audit/export?format=jsonl&${before}&user=${encodeURIComponent(user.email)}`);
    expect(res.status, res.text).toBe(200);
    expect(res.headers.get("content-type")).toBe("application/x-ndjson; charset=utf-8");
    expect(res.headers.get("content-disposition")).toMatch(/\.jsonl"$/);
    const events = res.text.trimEnd().split("\n").map((l) => JSON.parse(l) as TAuditEvent);
    expect(events.map((e) => e.requestId)).toEqual(["a3", "a3", "a2", "a1"]);
    const exported = await get<TAuditPage>("/api/v1/audit?action=audit.exported");
    expect(exported.body.items.length).toBeGreaterThanOrEqual(2);
    const [last] = exported.body.items;
    expect(last).toMatchObject({ userId: admin.id, category: "security", details: { format: "jsonl" } });
    // The filter is recorded (the e-mail in it as the audit's redaction leaves it).
    expect(Object.keys((last!.details as { filter: Record<string, string> }).filter).sort()).toEqual(["to", "user"]);
  });
});
