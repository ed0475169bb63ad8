// The MCP conformance suite's server scenarios through `portcullis start` itself: /mcp/s/<slug> is answered by
// the start server's MCP fast path (no Next.js), its SSE streams, resumption and relayed requests included.
// They must all pass, as they do against the fixture directly (server/test/conformance-direct.int.test.ts).
import { afterAll, beforeAll, expect, it } from "vitest";
import { apiRequest } from "./test-support/api-request";
import {
  conformanceServerStdio,
  formatConformanceTable,
  runConformance,
  startHeaderProxy,
  type RunningServer,
} from "./test-support/conformance";
import { lastLine, runCli } from "./test-support/run-cli";
import { startApp, stopAllApps, type AppProcess } from "./test-support/start-app";
import { makeTempDir, removeTempDirs } from "./test-support/temp-dir";

const ADMIN = { email: "root@example.com", password: "admin-password-1" };

let app: AppProcess;
let proxy: RunningServer | undefined;
let agentToken = "";

beforeAll(async () => {
  const dataDir = await makeTempDir("mcp-conformance");
  app = await startApp({
    env: { DATA_DIR: dataDir, ADMIN_EMAIL: ADMIN.email, ADMIN_PASSWORD: ADMIN.password, PORTCULLIS_NO_DEMO: "1" },
  });
  const admin = lastLine((await runCli(["token", "create", "--email", ADMIN.email, "--name", "conf"], { env: { DATA_DIR: dataDir } })).stdout);
  const stdio = await conformanceServerStdio();
  // Unsandboxed: this is about the protocol through the start server (server/sandbox covers the sandbox).
  const server = await apiRequest<{ status: string }>(app.baseUrl, "/api/v1/servers", {
    token: admin,
    body: { slug: "conf-stdio", name: "Conformance fixture (stdio)", transport: "stdio", command: stdio.command, args: stdio.args, isolation: { profile: "none" } },
    timeoutMs: 60_000,
  });
  expect(server.status, server.text).toBe(201);
  const session = await apiRequest<{ token: string }>(app.baseUrl, "/api/v1/sessions", { token: admin, body: { agentId: "conf", tools: ["*"], paths: ["*"] } });
  expect(session.status, session.text).toBe(201);
  agentToken = session.body.token;
}, 120_000);

afterAll(async () => {
  await proxy?.close();
  await stopAllApps();
  await removeTempDirs();
});

it("every server scenario passes through portcullis start's /mcp/s/conf-stdio", async () => {
  proxy = await startHeaderProxy(`${app.baseUrl}/mcp/s/conf-stdio`, { authorization: `Bearer ${agentToken}` });
  const results = await runConformance(proxy.url, { timeoutMs: 170_000 });
  console.log(`conformance through portcullis start /mcp/s/conf-stdio:\n${formatConformanceTable(results)}`);
  expect(Object.fromEntries(results.filter((r) => !r.passed).map((r) => [r.scenario, r.failures]))).toEqual({});
  expect(results.length).toBeGreaterThanOrEqual(30);
}, 200_000);
