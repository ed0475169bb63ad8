// Child process: one Portcullis gateway process as `portcullis start` runs it, minus Next.js: createGateway on
// the benchmark's database, `await gateway.startTasks()` (graphile-worker with BENCH_TASK_CONCURRENCY workers
// and the sweeper), and gateway.mcp.handle served on 127.0.0.1 through bench/gateway's node:http adapter.
// With BENCH_JOB_NOTIFY=0 its workers do not LISTEN for graphile-worker's `jobs:insert` (see pg-tap.ts): the
// polling baseline.
import http from "node:http";
import type { AddressInfo } from "node:net";
import { monitorEventLoopDelay } from "node:perf_hooks";
import pg from "pg";
import { startTaskProfile, type TaskProfileSummary } from "./cpu-profile";
import { installPgTap } from "./pg-tap";
import { loadConfig } from "../../server/config";
import { createDb } from "../../server/db/client";
import { createGateway, type Gateway } from "../../server/index";
import { createLogger } from "../../server/logger";
import { failChild, serveChild } from "../gateway/child";
import { nodeListener } from "../gateway/node-http-adapter";

/** CPU and wall time of one database operation, through Prisma (as the engine does it) or through node-postgres. */
export type DbCostRow = { op: string; via: "Prisma" | "node-postgres"; cpuMs: number; wallMs: number };

export type GatewayReady = {
  url: string;
  runnerId: string;
  concurrency: number;
  pollInterval: number;
  jobNotify: boolean;
};

const databaseUrl = process.env.BENCH_DATABASE_URL;
if (!databaseUrl) failChild(new Error("BENCH_DATABASE_URL is not set"));
const concurrency = Number(process.env.BENCH_TASK_CONCURRENCY ?? 8);
const jobNotify = process.env.BENCH_JOB_NOTIFY !== "0";
const rateLimit = "1000000000";
const logger = createLogger(process.env.BENCH_LOG_LEVEL ?? "silent");
const tap = installPgTap({ dropJobNotify: !jobNotify });
// How long callbacks wait for this process's event loop: the submit transaction's round trips and the workers'
// statements all queue here when the process is busy.
const loopDelay = monitorEventLoopDelay({ resolution: 5 });
loopDelay.enable();

let gateway: Gateway | undefined;
let server: http.Server | undefined;
let stopCpuProfile: (() => Promise<TaskProfileSummary>) | undefined;

let closing: Promise<void> | undefined;
function cleanup(): Promise<void> {
  closing ??= (async () => {
    if (server) {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server!.close(() => resolve()));
    }
    await gateway?.close().catch(() => undefined);
  })();
  return closing;
}
// The parent gone while this process starts (serveChild watches the channel only once it is ready).
process.once("disconnect", () => void cleanup().finally(() => process.exit(0)));

process.on("uncaughtException", (err) => {
  console.error("bench: a gateway process crashed:", err);
  void cleanup().finally(() => process.exit(1));
});

/**
 * The cost in this process of the statements a task makes, one at a time on an idle machine share: each as
 * the engine makes it (Prisma) and the same statement through node-postgres, `n` times each after a warm-up.
 */
async function dbCost(gw: Gateway, n: number): Promise<DbCostRow[]> {
  const db = gw.db;
  const task = await db.task.findFirst({ where: { status: "SUCCEEDED" }, select: { id: true } });
  if (!task) throw new Error("no finished task to read");
  const id = task.id;
  const client = new pg.Client({ connectionString: databaseUrl, application_name: "bench-tasks dbCost" });
  await client.connect();
  const rows: DbCostRow[] = [];
  const time = async (op: string, via: DbCostRow["via"], fn: () => Promise<unknown>) => {
    for (let i = 0; i < Math.min(50, n); i++) await fn();
    const c = process.cpuUsage();
    const t = performance.now();
    for (let i = 0; i < n; i++) await fn();
    const used = process.cpuUsage(c);
    rows.push({ op, via, cpuMs: (used.user + used.system) / 1000 / n, wallMs: (performance.now() - t) / n });
  };
  try {
    await time("read a task by id", "Prisma", () => db.task.findUnique({ where: { id } }));
    await time("read a task by id", "node-postgres", () => client.query("SELECT * FROM tasks WHERE id = $1", [id]));
    await time("insert a task event", "Prisma", () =>
      db.taskEvent.create({ data: { taskId: id, type: "bench", data: { attempt: 1 } } }),
    );
    await time("insert a task event", "node-postgres", () =>
      client.query(`INSERT INTO task_events ("taskId", type, data) VALUES ($1, $2, $3)`, [id, "bench", { attempt: 1 }]),
    );
    // finish()'s shape: a transaction that updates the row, reads it back, adds an event and a notification.
    await time("finish-shaped transaction (update, read back, event, notify)", "Prisma", () =>
      db.$transaction(async (tx) => {
        await tx.task.updateMany({ where: { id, status: "SUCCEEDED" }, data: { progress: 1 } });
        await tx.task.findUniqueOrThrow({ where: { id } });
        await tx.taskEvent.create({ data: { taskId: id, type: "bench", data: { attempt: 1 } } });
        await tx.$executeRaw`SELECT pg_notify('bench_tasks', ${id})`;
      }),
    );
    await time("finish-shaped transaction (update, read back, event, notify)", "node-postgres", async () => {
      await client.query("BEGIN");
      await client.query(`UPDATE tasks SET progress = 1 WHERE id = $1 AND status = 'SUCCEEDED' RETURNING *`, [id]);
      await client.query(`INSERT INTO task_events ("taskId", type, data) VALUES ($1, $2, $3)`, [
        id,
        "bench",
        { attempt: 1 },
      ]);
      await client.query(`SELECT pg_notify('bench_tasks', $1)`, [id]);
      await client.query("COMMIT");
    });
  } finally {
    await client.end();
  }
  return rows;
}

async function until(what: string, ok: () => boolean, ms: number) {
  const end = Date.now() + ms;
  while (!ok()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

try {
  const gw = createGateway({
    db: createDb(databaseUrl),
    databaseUrl,
    logger,
    // The rate-limit step runs on every call, with limits the benchmark never reaches.
    config: loadConfig({ RATE_LIMIT_SESSION_PER_MINUTE: rateLimit, RATE_LIMIT_TOOL_PER_MINUTE: rateLimit }),
    tasks: { concurrency },
  });
  gateway = gw;
  // What `portcullis start` does at start-up: connect the upstreams, start the task workers and the sweeper.
  await gw.startUpstreams();
  await gw.startTasks();
  // graphile-worker opens its LISTEN connection in the background: in the baseline, make sure it was dropped.
  if (!jobNotify)
    await until('graphile-worker\'s LISTEN "jobs:insert" (to drop it)', () => tap.droppedListens() > 0, 30_000);
  const engine = gw.taskEngine;

  server = http.createServer(
    nodeListener(
      (req) => gw.mcp.handle(req, { kind: "aggregate" }),
      (err) => logger.error({ err }, "bench: handler failed"),
    ),
  );
  server.keepAliveTimeout = 60_000;
  await new Promise<void>((resolve) => server!.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;

  serveChild({
    ready: {
      url: `http://127.0.0.1:${port}/mcp`,
      runnerId: engine.runnerId,
      concurrency: engine.options.concurrency,
      pollInterval: 1000,
      jobNotify,
    } satisfies GatewayReady,
    stop: cleanup,
    handlers: {
      sqlReset: async () => {
        tap.reset();
        loopDelay.reset();
      },
      loopDelay: async () => ({
        p50: loopDelay.percentile(50) / 1e6,
        p99: loopDelay.percentile(99) / 1e6,
        max: loopDelay.max / 1e6,
      }),
      sqlCounts: async () => tap.counts(),
      dbCost: (arg) => dbCost(gw, (arg as { n: number }).n),
      cpuProfileStart: async () => void (stopCpuProfile = await startTaskProfile()),
      cpuProfileStop: async () => {
        if (!stopCpuProfile) throw new Error("no CPU profile is running");
        const summary = await stopCpuProfile();
        stopCpuProfile = undefined;
        return summary;
      },
    },
  });
} catch (err) {
  await cleanup().catch(() => undefined);
  failChild(err);
}
