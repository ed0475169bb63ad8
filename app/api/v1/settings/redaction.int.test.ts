// The redaction settings REST API over HTTP on the real app: admins only, the defaults, a round trip that the
// preview (the text as it would be stored) follows at once, 422 for what the schema refuses, and the audit event.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEFAULT_REDACTION_SETTINGS, type TRedactionSettings } from "@/lib/redaction-schemas";
import { userWithApiToken } from "@/server/test/gateway-harness";
import { createTestDb, testDatabaseUrl, truncateAll } from "@/server/test/test-db";
import { apiRequest, type ApiErrorBody, type ApiResponse } from "@/scripts/test-support/api-request";
import { startApp, stopAllApps } from "@/scripts/test-support/start-app";
import { makeTempDir, removeTempDirs } from "@/scripts/test-support/temp-dir";

const PATH = "/api/v1/settings/redaction";
const PREVIEW = "/api/v1/settings/redaction/preview";

function expectError(res: ApiResponse, status: number, code: string) {
  expect({ status: res.status, code: (res.body as ApiErrorBody | undefined)?.error?.code }, res.text).toEqual({
    status,
    code,
  });
}

const details = (res: ApiResponse) => (res.body as ApiErrorBody).error.details ?? [];

describe("REST API: redaction settings", () => {
  const db = createTestDb();
  let base = "";
  const admin = { token: "", id: "" };
  const user = { token: "" };

  const get = () => apiRequest<TRedactionSettings>(base, PATH, { token: admin.token });
  const put = (body: unknown) =>
    apiRequest<TRedactionSettings>(base, PATH, { method: "PUT", token: admin.token, body });
  const preview = async (text: string) => {
    const res = await apiRequest<{ text: string }>(base, PREVIEW, { token: admin.token, body: { text } });
    expect(res.status, res.text).toBe(200);
    return res.body.text;
  };
  const withTicket = (s: TRedactionSettings): TRedactionSettings => ({
    ...s,
    patterns: [...s.patterns, { name: "ticket", pattern: String.raw`TCK-\d{4}`, enabled: true }],
  });

  beforeAll(async () => {
    await truncateAll(db);
    const a = await userWithApiToken(db, "ADMIN");
    Object.assign(admin, { token: a.token, id: a.user.id });
    user.token = (await userWithApiToken(db, "USER")).token;
    const app = await startApp({
      env: { DATABASE_URL: testDatabaseUrl(), DATA_DIR: await makeTempDir("redaction-api"), PORTCULLIS_NO_DEMO: "1" },
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
    expectError(
      await apiRequest(base, PATH, { method: "PUT", body: DEFAULT_REDACTION_SETTINGS }),
      401,
      "unauthenticated",
    );
    expectError(await apiRequest(base, PREVIEW, { body: { text: "x" } }), 401, "unauthenticated");
    expectError(await apiRequest(base, PATH, { token: user.token }), 403, "forbidden");
    expectError(
      await apiRequest(base, PATH, { method: "PUT", token: user.token, body: DEFAULT_REDACTION_SETTINGS }),
      403,
      "forbidden",
    );
    expectError(await apiRequest(base, PREVIEW, { token: user.token, body: { text: "x" } }), 403, "forbidden");
  });

  it("GET – the defaults on a fresh install: hash mode, every built-in pattern on, the default field names", async () => {
    const res = await get();
    expect(res.status, res.text).toBe(200);
    expect(res.body).toEqual(DEFAULT_REDACTION_SETTINGS);
  });

  it("POST preview – in hash mode an e-mail becomes [email:<10 hex>], the same address the same tag", async () => {
    const out = await preview("Write to jane.doe@example.com or john@example.org, and again jane.doe@example.com.");
    const tags = [...out.matchAll(/\[email:([0-9a-f]{10})\]/g)].map((m) => m[1]);
    expect(out, out).not.toContain("@example.com");
    expect(out).toMatch(
      /^Write to \[email:[0-9a-f]{10}\] or \[email:[0-9a-f]{10}\], and again \[email:[0-9a-f]{10}\]\.$/,
    );
    expect(tags[0]).toBe(tags[2]);
    expect(tags[0]).not.toBe(tags[1]);
    // Not a pattern yet: stays as it is.
    expect(await preview("ticket TCK-1234")).toBe("ticket TCK-1234");
  });

  it("POST preview – 422 for a missing or too long text, 400 for a body that is not JSON", async () => {
    expectError(await apiRequest(base, PREVIEW, { token: admin.token, body: {} }), 422, "validation_failed");
    expectError(
      await apiRequest(base, PREVIEW, { token: admin.token, body: { text: "x".repeat(20_001) } }),
      422,
      "validation_failed",
    );
    expectError(await apiRequest(base, PREVIEW, { token: admin.token, body: "{not json" }), 400, "invalid_json");
  });

  it("PUT – 422 with details for an invalid regular expression and for duplicate names; nothing is saved", async () => {
    const badRegex = await put(
      withTicket({ ...DEFAULT_REDACTION_SETTINGS, patterns: [{ name: "broken", pattern: "TCK-(\\d", enabled: true }] }),
    );
    expectError(badRegex, 422, "validation_failed");
    expect(details(badRegex)).toContainEqual({
      path: "patterns.0.pattern",
      message: expect.stringContaining("valid regular expression") as string,
    });

    const dup = await put({
      ...DEFAULT_REDACTION_SETTINGS,
      patterns: [...DEFAULT_REDACTION_SETTINGS.patterns, { name: "email", pattern: "x", enabled: true }],
    });
    expectError(dup, 422, "validation_failed");
    expect(details(dup)).toContainEqual({ path: "patterns", message: "pattern names must be unique" });

    const badName = await put(
      withTicket({ ...DEFAULT_REDACTION_SETTINGS, patterns: [{ name: "Ticket Number", pattern: "x", enabled: true }] }),
    );
    expectError(badName, 422, "validation_failed");
    expect(details(badName).map((d) => d.path)).toContain("patterns.0.name");
    expectError(await put({ ...DEFAULT_REDACTION_SETTINGS, mode: "scramble" }), 422, "validation_failed");

    expect((await get()).body).toEqual(DEFAULT_REDACTION_SETTINGS);
    expect(await db.auditEvent.count({ where: { action: "settings.redaction_updated" } })).toBe(0);
  });

  it("PUT then GET – a round trip; the preview uses the new pattern at once, and the change is audited", async () => {
    const next: TRedactionSettings = {
      ...withTicket(DEFAULT_REDACTION_SETTINGS),
      fields: [...DEFAULT_REDACTION_SETTINGS.fields, "iban"],
    };
    const saved = await put(next);
    expect(saved.status, saved.text).toBe(200);
    expect(saved.body).toEqual(next);
    expect((await get()).body).toEqual(next);

    expect(await preview("See TCK-1234 and TCK-1234, not TCK-12.")).toMatch(
      /^See \[ticket:([0-9a-f]{10})\] and \[ticket:\1\], not TCK-12\.$/,
    );

    const events = await db.auditEvent.findMany({ where: { action: "settings.redaction_updated" } });
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({
      userId: admin.id,
      category: "admin",
      status: "ok",
      targetType: "settings",
      targetId: "redaction",
    });
    expect(events[0]!.details).toMatchObject({
      mode: "hash",
      patterns: expect.arrayContaining(["email", "ticket"]) as string[],
      fields: expect.arrayContaining(["iban"]) as string[],
    });
  });

  it("PUT – mask mode and a disabled pattern take effect in the preview", async () => {
    const current = (await get()).body;
    const masked = await put({ ...current, mode: "mask" });
    expect(masked.status, masked.text).toBe(200);
    expect(await preview("jane.doe@example.com opened TCK-1234")).toBe("[email] opened [ticket]");

    const off = await put({
      ...current,
      mode: "mask",
      patterns: current.patterns.map((p) => (p.name === "email" ? { ...p, enabled: false } : p)),
    });
    expect(off.status, off.text).toBe(200);
    expect(await preview("jane.doe@example.com opened TCK-1234")).toBe("jane.doe@example.com opened [ticket]");

    const restored = await put(DEFAULT_REDACTION_SETTINGS);
    expect(restored.status, restored.text).toBe(200);
    expect(await preview("jane.doe@example.com opened TCK-1234")).toMatch(/^\[email:[0-9a-f]{10}\] opened TCK-1234$/);
    expect(await db.auditEvent.count({ where: { action: "settings.redaction_updated" } })).toBe(4);
  });
});
