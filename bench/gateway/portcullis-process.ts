// Child process: Portcullis as `portcullis start` runs it, minus Next.js: embedded PostgreSQL in a temp
// dir, migrations, a user with an agent session token, createGateway, the echo upstream registered over
// HTTP, and gateway.mcp.handle served on 127.0.0.1 through a small node:http adapter.
import { readFileSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import http from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { loadConfig } from "../../server/config";
import { systemContext } from "../../server/context";
import { createDb } from "../../server/db/client";
import { startEmbeddedPostgres, type EmbeddedDatabase } from "../../server/db/embedded";
import { applyMigrations } from "../../server/db/migrate";
import { createGateway, type Gateway } from "../../server/index";
import { createLogger } from "../../server/logger";
import { failChild, serveChild } from "./child";
import { nodeListener } from "./node-http-adapter";
import { startCpuProfile, type CpuProfileSummary } from "./cpu-profile";
import { profileGateway } from "./profile";

export type PortcullisReady = {
  url: string;
  token: string;
  tool: string;
  postmasterPid: number | undefined;
  dbPoolMax: number | undefined;
};

const upstreamUrl = process.env.BENCH_UPSTREAM_URL;
if (!upstreamUrl) failChild(new Error("BENCH_UPSTREAM_URL is not set"));
// Unset: what app/_lib/gateway.ts (the /mcp route) uses, createDb's default pool.
const dbPoolMax = process.env.BENCH_DB_POOL ? Number(process.env.BENCH_DB_POOL) : undefined;
const rateLimit = process.env.BENCH_RATE_LIMIT ?? "1000000000";
const logger = createLogger(process.env.BENCH_LOG_LEVEL ?? "silent");

let dataDir: string | undefined;
let database: EmbeddedDatabase | undefined;
let gateway: Gateway | undefined;
let server: http.Server | undefined;
let stopCpuProfile: (() => Promise<CpuProfileSummary>) | undefined;

async function cleanup() {
  if (server) {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server!.close(() => resolve()));
  }
  await gateway?.close().catch(() => undefined);
  await database?.stop().catch(() => undefined);
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
}

// A crash must not leave PostgreSQL running or its temp dir behind.
process.on("uncaughtException", (err) => {
  console.error("bench: Portcullis process crashed:", err);
  void cleanup().finally(() => process.exit(1));
});

try {
  dataDir = await mkdtemp(path.join(os.tmpdir(), "portcullis-bench-"));
  database = await startEmbeddedPostgres({ dataDir, logger });
  await applyMigrations({ databaseUrl: database.url });
  const gw = createGateway({
    db: createDb(database.url, dbPoolMax ? { max: dbPoolMax } : {}),
    databaseUrl: database.url,
    logger,
    // The rate-limit step runs on every call, with limits the benchmark never reaches.
    config: loadConfig({ RATE_LIMIT_SESSION_PER_MINUTE: rateLimit, RATE_LIMIT_TOOL_PER_MINUTE: rateLimit }),
  });
  gateway = gw;
  const ctx = systemContext("bench");
  const { user } = await gw.users.create(ctx, {
    email: "bench@example.test",
    name: "Benchmark",
    role: "USER",
    password: "bench-password-1",
  });
  await gw.registry.register(ctx, { slug: "bench", name: "Benchmark echo", transport: "http", url: upstreamUrl });
  // The agent's session token: the user holds the bench server's tools, the session whitelists them.
  await gw.policy.createGrant(ctx, { kind: "tool", pattern: "bench__*", userId: user.id });
  const { token } = await gw.sessions.create(ctx, user.id, { agentId: "bench", tools: ["bench__*"], paths: [], ttlSeconds: 86_400 });
  const tool = "bench__echo";
  if (!(await gw.registry.visibleTools(0)).some((t) => t.name === tool))
    throw new Error(`${tool} is not visible after registration`);

  server = http.createServer(
    nodeListener(
      (req) => gw.mcp.handle(req, { kind: "aggregate" }),
      (err) => logger.error({ err }, "bench: handler failed"),
    ),
  );
  server.keepAliveTimeout = 60_000;
  await new Promise<void>((resolve) => server!.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  const pidFile = path.join(dataDir, "pg", "postmaster.pid");
  const postmasterPid = Number.parseInt(readFileSync(pidFile, "utf8").split("\n")[0] ?? "", 10) || undefined;

  serveChild({
    ready: { url: `http://127.0.0.1:${port}/mcp`, token, tool, postmasterPid, dbPoolMax } satisfies PortcullisReady,
    stop: cleanup,
    handlers: {
      cpuProfileStart: async () => void (stopCpuProfile = await startCpuProfile()),
      cpuProfileStop: async () => {
        if (!stopCpuProfile) throw new Error("no CPU profile is running");
        const summary = await stopCpuProfile();
        stopCpuProfile = undefined;
        return summary;
      },
      profile: (arg) =>
        profileGateway({
          gateway: gw,
          databaseUrl: database!.url,
          token,
          upstreamUrl: upstreamUrl,
          tool,
          ...(arg as { n: number; stepMaxMs: number }),
        }),
      auditRows: async () => Number(await gw.db.auditEvent.count({ where: { action: "tool.called" } })),
    },
  });
} catch (err) {
  await cleanup().catch(() => undefined);
  failChild(err);
}
