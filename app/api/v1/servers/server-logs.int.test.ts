// GET /api/v1/servers/{slug}/logs over real HTTP: one `portcullis start` process, a stdio server that prints a
// secret it was given and crashes on a missing module, its real stderr read back redacted, and the crash's
// "Cannot find module" line in the server's status.
import { writeFile } from "node:fs/promises";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { TServerWithTools } from "@/lib/schemas";
import type { TServerLogs } from "@/lib/server-logs-schemas";
import { tempDir, removeTempDirs, userWithApiToken } from "@/server/test/gateway-harness";
import { createTestDb, testDatabaseUrl, truncateAll } from "@/server/test/test-db";
import { apiRequest, type ApiErrorBody } from "@/scripts/test-support/api-request";
import { startApp, stopAllApps } from "@/scripts/test-support/start-app";
import { makeTempDir, removeTempDirs as removeDataDirs } from "@/scripts/test-support/temp-dir";

const TOKEN = "sk-crash-5f1c0e7a9b2d4c68";
const CRASH = `console.error("starting with token " + process.env.CRASH_TOKEN);\nrequire("portcullis-missing-module");\n`;

describe("REST API /api/v1/servers/{slug}/logs", () => {
  const db = createTestDb();
  let base = "";
  const admin = { token: "" };
  const user = { token: "" };
  let registered: TServerWithTools;

  beforeAll(async () => {
    await truncateAll(db);
    admin.token = (await userWithApiToken(db, "ADMIN")).token;
    user.token = (await userWithApiToken(db, "USER")).token;
    const app = await startApp({
      env: { DATABASE_URL: testDatabaseUrl(), DATA_DIR: await makeTempDir("logs-api"), PORTCULLIS_NO_DEMO: "1" },
    });
    base = app.baseUrl;
    const script = path.join(await tempDir("logs-api"), "crash.js");
    await writeFile(script, CRASH);
    const res = await apiRequest<TServerWithTools>(base, "/api/v1/servers", {
      ...admin,
      body: {
        slug: "crashing",
        name: "Crashing fixture",
        transport: "stdio",
        command: process.execPath,
        args: [script],
        env: { CRASH_TOKEN: TOKEN },
        isolation: { profile: "none" },
      },
    });
    if (res.status !== 201) throw new Error(`POST /api/v1/servers: ${res.text}`);
    registered = res.body;
  });

  afterAll(async () => {
    await stopAllApps();
    await removeDataDirs();
    await removeTempDirs();
    await db.$disconnect();
  });

  it("POST /api/v1/servers – a crashing server is DOWN with the \"Cannot find module\" line in its status, not the last three lines", () => {
    expect(registered.server.status).toBe("DOWN");
    expect(registered.server.lastError).toContain("Error: Cannot find module 'portcullis-missing-module'");
    expect(registered.server.lastError).toMatch(/Node\.js v\d+/);
    expect(registered.server.lastError).not.toContain(TOKEN);
  });

  it("GET /api/v1/servers/{slug}/logs – 200 the process's real stderr, its secret redacted", async () => {
    const res = await apiRequest<TServerLogs>(base, "/api/v1/servers/crashing/logs", admin);
    expect(res.status, res.text).toBe(200);
    expect(res.body.held).toBe(true);
    // The crash is the current process, or the last exited one once a retry has started another.
    const crashed = [res.body.current, res.body.previous].find((p) => p?.lines.some((l) => l.includes("Cannot find module")));
    expect(crashed, res.text).toBeDefined();
    expect(crashed!.endedAt).not.toBeNull();
    expect(crashed!.lines).toContain("starting with token [secret]");
    expect(crashed!.lines.at(-1)).toMatch(/^Node\.js v\d+/);
    expect(res.text).not.toContain(TOKEN);
  });

  it("GET /api/v1/servers/{slug} – the status keeps the error line and hides the secret", async () => {
    const res = await apiRequest<TServerWithTools>(base, "/api/v1/servers/crashing", admin);
    expect(res.body.server.lastError).toContain("Cannot find module 'portcullis-missing-module'");
    expect(res.text).not.toContain(TOKEN);
  });

  it("GET /api/v1/servers/{slug}/logs – 404 not_found for an unknown server, 403 forbidden for a USER", async () => {
    const missing = await apiRequest(base, "/api/v1/servers/nobody/logs", admin);
    expect([missing.status, (missing.body as ApiErrorBody).error.code]).toEqual([404, "not_found"]);
    const forbidden = await apiRequest(base, "/api/v1/servers/crashing/logs", user);
    expect([forbidden.status, (forbidden.body as ApiErrorBody).error.code]).toEqual([403, "forbidden"]);
  });
});
