// The OAuth client admin API over HTTP on the real app (the embedded authorization server on, PUBLIC_URL
// served): admins list, block and unblock; users are refused; a bad clientId is refused with its code and
// changes nothing. The enforcement itself is tested in server/oauth/as (embedded-authorization-server.int).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { TBlockOutcome, TOAuthClient } from "@/lib/oauth-schemas";
import { freePort } from "@/server/db/embedded";
import { userWithApiToken } from "@/server/test/gateway-harness";
import { createTestDb, testDatabaseUrl, truncateAll } from "@/server/test/test-db";
import { apiRequest, type ApiErrorBody, type ApiResponse } from "@/scripts/test-support/api-request";
import { startApp, stopAllApps } from "@/scripts/test-support/start-app";
import { makeTempDir, removeTempDirs } from "@/scripts/test-support/temp-dir";

const errorOf = (res: ApiResponse) => {
  const e = (res.body as ApiErrorBody | undefined)?.error;
  return { status: res.status, code: e?.code, detail: (e?.details?.[0] as { code?: string } | undefined)?.code };
};

describe("REST API: OAuth clients", () => {
  const db = createTestDb();
  let base = "";
  let admin = "";
  let user = "";

  beforeAll(async () => {
    await truncateAll(db);
    admin = (await userWithApiToken(db, "ADMIN")).token;
    user = (await userWithApiToken(db, "USER")).token;
    const port = await freePort();
    const app = await startApp({
      port,
      env: { DATABASE_URL: testDatabaseUrl(), DATA_DIR: await makeTempDir("oauth-clients-api"), PORTCULLIS_NO_DEMO: "1", PUBLIC_URL: `http://127.0.0.1:${String(port)}` },
    });
    base = app.baseUrl;
  });

  afterAll(async () => {
    await stopAllApps();
    await removeTempDirs();
    await db.$disconnect();
  });

  it("POST /api/v1/oauth/clients/block – a user gets 403 and nothing is blocked; so for unblock and the list", async () => {
    expect(errorOf(await apiRequest(base, "/api/v1/oauth/clients/block", { token: user, body: { clientId: "abc" } }))).toMatchObject({ status: 403, code: "forbidden" });
    expect(errorOf(await apiRequest(base, "/api/v1/oauth/clients/unblock", { token: user, body: { clientId: "abc" } }))).toMatchObject({ status: 403, code: "forbidden" });
    expect(errorOf(await apiRequest(base, "/api/v1/oauth/clients", { token: user }))).toMatchObject({ status: 403, code: "forbidden" });
    expect(await db.oAuthBlockedClient.count()).toBe(0);
  });

  it.each([
    ["empty", "", "client_id_empty"],
    ["control characters", "abc\r\ndef", "client_id_control_character"],
    ["3000 characters", "x".repeat(3000), "client_id_too_long"],
  ])("POST /api/v1/oauth/clients/block – a clientId that is %s: 422 with its code, nothing stored", async (_what, clientId, code) => {
    expect(errorOf(await apiRequest(base, "/api/v1/oauth/clients/block", { token: admin, body: { clientId } }))).toEqual({ status: 422, code: "validation_failed", detail: code });
    expect(await db.oAuthBlockedClient.count()).toBe(0);
  });

  it("POST /api/v1/oauth/clients/block and /unblock – an admin blocks a metadata document URL, the list shows it, unblock lifts it", async () => {
    const clientId = "https://agent.example.com/client.json";
    const blocked = await apiRequest<TBlockOutcome>(base, "/api/v1/oauth/clients/block", { token: admin, body: { clientId, reason: "unknown vendor" } });
    expect(blocked).toMatchObject({ status: 200, body: { clientId, blocked: true, revokedSessions: 0 } });
    const list = await apiRequest<TOAuthClient[]>(base, "/api/v1/oauth/clients", { token: admin });
    expect(list.status).toBe(200);
    expect(list.body).toHaveLength(1);
    expect(list.body[0]).toMatchObject({ clientId, kind: "metadata_document", activeSessions: 0, blocked: { reason: "unknown vendor" } });
    expect(await apiRequest(base, "/api/v1/oauth/clients/unblock", { token: admin, body: { clientId } })).toMatchObject({ status: 200, body: { clientId, blocked: false } });
    expect((await apiRequest<TOAuthClient[]>(base, "/api/v1/oauth/clients", { token: admin })).body).toEqual([]);
  });
});
