// The benchmark's gateway, as server/test/gateway-harness.ts's startTestGateway builds it but outside vitest:
// embedded PostgreSQL in a temp dir with the migrations, createGateway, and the app's three MCP routes (/mcp,
// /mcp/code, /mcp/s/<slug>) served over node:http; a user who holds every tool, with an agent session token.
import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { loadConfig } from "../../server/config";
import { systemContext, type RequestContext } from "../../server/context";
import { createDb } from "../../server/db/client";
import { startEmbeddedPostgres, type EmbeddedDatabase } from "../../server/db/embedded";
import { applyMigrations } from "../../server/db/migrate";
import { createGateway, type Gateway } from "../../server/index";
import { createLogger } from "../../server/logger";
import { userContext } from "../../server/test/contexts";
import { serveWebHandler, type ServedHandler } from "../../server/test/serve-web-handler";

export type BenchGateway = {
  gateway: Gateway;
  admin: RequestContext;
  /** The user's own context (the console's playground runs programs as a person). */
  user: RequestContext;
  userId: string;
  /** An agent session token of the user, whitelisting everything. */
  token: string;
  mcpUrl: URL;
  codeUrl: URL;
  close(): Promise<void>;
};

export async function startBenchGateway(): Promise<BenchGateway> {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), "portcullis-bench-codemode-"));
  const logger = createLogger(process.env.BENCH_LOG_LEVEL ?? "silent");
  let database: EmbeddedDatabase | undefined;
  let gateway: Gateway | undefined;
  let http: ServedHandler | undefined;
  const close = async () => {
    await http?.close().catch(() => undefined);
    await gateway?.close().catch(() => undefined);
    await database?.stop().catch(() => undefined);
    await rm(dataDir, { recursive: true, force: true });
  };
  try {
    database = await startEmbeddedPostgres({ dataDir, logger });
    await applyMigrations({ databaseUrl: database.url });
    const limit = "1000000000"; // the rate-limit step runs on every call, with limits the benchmark never reaches
    const gw = createGateway({
      db: createDb(database.url),
      databaseUrl: database.url,
      logger,
      config: loadConfig({ RATE_LIMIT_SESSION_PER_MINUTE: limit, RATE_LIMIT_TOOL_PER_MINUTE: limit, CODE_MODE_MAX_TOOL_CALLS: "1000", CODE_MODE_RUNS_PER_MINUTE: limit }),
      tasks: { thresholdMs: 0 },
    });
    gateway = gw;
    await gw.startUpstreams(); // no servers yet: warms the code-mode worker pool
    const admin = systemContext("bench");
    const { user } = await gw.users.create(admin, { email: "bench@example.test", name: "Benchmark", role: "USER", password: "bench-password-1" });
    await gw.policy.createGrant(admin, { kind: "tool", pattern: "*", userId: user.id });
    const { token } = await gw.sessions.create(admin, user.id, { agentId: "bench-agent", tools: ["*"], paths: [], ttlSeconds: 86_400 });
    http = await serveWebHandler((req, body) => {
      const pathname = new URL(req.url).pathname;
      const slug = /^\/mcp\/s\/([^/?]+)/.exec(pathname)?.[1];
      if (slug) return gw.mcp.handle(req, { kind: "server", slug: decodeURIComponent(slug) }, body);
      return gw.mcp.handle(req, pathname.startsWith("/mcp/code") ? { kind: "code" } : { kind: "aggregate" }, body);
    });
    return {
      gateway: gw,
      admin,
      user: userContext(user),
      userId: user.id,
      token,
      mcpUrl: new URL("/mcp", http.url),
      codeUrl: new URL("/mcp/code", http.url),
      close,
    };
  } catch (err) {
    await close();
    throw err;
  }
}
