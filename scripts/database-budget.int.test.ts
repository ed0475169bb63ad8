// The database budget of a replica (server/db/connection-budget.ts): `portcullis start` never holds more
// PostgreSQL connections than its computed budget under load, and it works with its query pools behind a real
// PgBouncer in transaction mode (Debian's; .ci/run installs it), LISTEN and session locks on DATABASE_DIRECT_URL.
import { spawn, type ChildProcess } from "node:child_process";
import { existsSync } from "node:fs";
import { chmod, writeFile } from "node:fs/promises";
import path from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { TServer } from "../lib/schemas";
import { connectionBudget } from "../server/db/connection-budget";
import { freePort } from "../server/db/embedded";
import { applyMigrations } from "../server/db/migrate";
import { errorMeta, misbehavingServer } from "../server/test/gateway-harness";
import { testDatabaseUrl } from "../server/test/test-db";
import { apiRequest } from "./test-support/api-request";
import { REPO_ROOT } from "./test-support/run-cli";
import { signIn } from "./test-support/sign-in";
import { startApp, stopAllApps, type AppProcess } from "./test-support/start-app";
import { makeTempDir, removeTempDirs } from "./test-support/temp-dir";
import { waitUntil } from "./test-support/wait-until";

const ADMIN = { email: "root@example.com", password: "admin-password-1" };
const PGBOUNCER = "/usr/sbin/pgbouncer";

const admin = new pg.Client({ connectionString: testDatabaseUrl() });
const created: string[] = [];
const children: ChildProcess[] = [];

beforeAll(() => admin.connect());
afterAll(async () => {
  await stopAllApps();
  for (const c of children) c.kill("SIGKILL");
  for (const name of created) await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`).catch(() => undefined);
  await admin.end();
  await removeTempDirs();
});

/** A fresh, migrated database on the run's PostgreSQL, and its URL. */
async function freshDatabase(label: string): Promise<{ name: string; url: string }> {
  const name = `${label}_${process.pid}_${Date.now()}`;
  await admin.query(`CREATE DATABASE ${name}`);
  created.push(name);
  const url = new URL(testDatabaseUrl());
  url.pathname = `/${name}`;
  await applyMigrations({ databaseUrl: url.toString(), prismaDir: path.join(REPO_ROOT, "prisma") });
  return { name, url: url.toString() };
}

/** Connections to `db` now, other than this test's own. */
async function connectionsTo(db: string): Promise<number> {
  const { rows } = await admin.query<{ n: string }>("SELECT count(*) AS n FROM pg_stat_activity WHERE datname = $1", [db]);
  return Number(rows[0]!.n);
}

/** A replica with the fixture server and an agent's SDK client (tools flaky__*). */
async function replica(label: string, env: Record<string, string>): Promise<{ app: AppProcess; agent: Client; cookie: string }> {
  const fixtureDir = await makeTempDir(`${label}-fixture`);
  const app = await startApp({ env: { DATA_DIR: await makeTempDir(label), ADMIN_EMAIL: ADMIN.email, ADMIN_PASSWORD: ADMIN.password, PORTCULLIS_NO_DEMO: "1", ...env } });
  const cookie = (await signIn(app.baseUrl, ADMIN.email, ADMIN.password)).jar.header();
  const server = await apiRequest(app.baseUrl, "/api/v1/servers", { cookie, body: misbehavingServer(fixtureDir) });
  expect(server.status, server.text).toBe(201);
  await waitUntil(
    "the fixture server HEALTHY",
    async () => ((await apiRequest<{ items: TServer[] }>(app.baseUrl, "/api/v1/servers", { cookie })).body.items.find((s) => s.slug === "flaky")?.status === "HEALTHY" ? true : undefined),
    { timeoutMs: 60_000, intervalMs: 200 },
  );
  const minted = await apiRequest<{ token: string }>(app.baseUrl, "/api/v1/sessions", { cookie, body: { agentId: label, tools: ["flaky__*"] } });
  expect(minted.status, minted.text).toBe(201);
  const agent = new Client({ name: label, version: "1.0.0" });
  await agent.connect(new StreamableHTTPClientTransport(new URL("/mcp", app.baseUrl), { requestInit: { headers: { authorization: `Bearer ${minted.body.token}` } } }));
  return { app, agent, cookie };
}

/** Many calls at once, each a distinct one (no dedupe): every one must succeed. */
async function burst(agent: Client, n: number, tag: string): Promise<void> {
  const results = await Promise.all(Array.from({ length: n }, (_, i) => agent.callTool({ name: "flaky__counted", arguments: { name: `${tag}-${String(i)}` } })));
  for (const r of results) expect(r.isError ?? false, JSON.stringify(r)).toBe(false);
}

describe("portcullis start – its database connections stay within the budget", () => {
  it("DATABASE_POOL_MAX=3, TASK_CONCURRENCY=2: under 60 concurrent calls and console reads, never more connections than the logged budget", async () => {
    const db = await freshDatabase("budget");
    const { app, agent, cookie } = await replica("budget", { DATABASE_URL: db.url, DATABASE_POOL_MAX: "3", TASK_CONCURRENCY: "2" });
    const budget = connectionBudget({ queryPoolMax: 3, taskConcurrency: 2 });
    const logged = app.logLine<{ maxConnections?: number }>("database connections of this process at most");
    expect(logged?.maxConnections).toBe(budget.total);

    let peak = 0;
    let sampling = true;
    const sampler = (async () => {
      while (sampling) {
        peak = Math.max(peak, await connectionsTo(db.name));
        await new Promise((r) => setImmediate(r));
      }
    })();
    await Promise.all([
      burst(agent, 60, "budget"),
      ...Array.from({ length: 10 }, () => apiRequest(app.baseUrl, "/api/v1/audit?limit=50", { cookie })),
      ...Array.from({ length: 10 }, () => apiRequest(app.baseUrl, "/api/v1/servers", { cookie })),
    ]);
    sampling = false;
    await sampler;
    peak = Math.max(peak, await connectionsTo(db.name));
    expect(peak).toBeGreaterThan(0);
    expect(peak).toBeLessThanOrEqual(budget.total);
    await agent.close();
  }, 240_000);
});

describe("portcullis start – query pools through PgBouncer in transaction mode", () => {
  let bouncerPort = 0;
  let db: { name: string; url: string };

  beforeAll(async () => {
    if (!existsSync(PGBOUNCER)) throw new Error(`${PGBOUNCER} is missing: apt-get install pgbouncer (.ci/run does)`);
    db = await freshDatabase("pgbouncer");
    const direct = new URL(db.url);
    bouncerPort = await freePort();
    const dir = await makeTempDir("pgbouncer");
    await writeFile(path.join(dir, "users.txt"), `"${decodeURIComponent(direct.username)}" ""\n`);
    await writeFile(
      path.join(dir, "pgbouncer.ini"),
      [
        "[databases]",
        `${db.name} = host=${direct.hostname} port=${direct.port} dbname=${db.name} user=${decodeURIComponent(direct.username)} password=${decodeURIComponent(direct.password)}`,
        "[pgbouncer]",
        "listen_addr = 127.0.0.1",
        `listen_port = ${String(bouncerPort)}`,
        "unix_socket_dir =",
        "auth_type = trust",
        `auth_file = ${path.join(dir, "users.txt")}`,
        `admin_users = ${decodeURIComponent(direct.username)}`,
        "pool_mode = transaction",
        "default_pool_size = 6",
        "max_client_conn = 500",
        "ignore_startup_parameters = extra_float_digits",
        "",
      ].join("\n"),
    );
    // PgBouncer will not run as root: as root, it switches to the postgres user (-u), who must read its files.
    const asRoot = process.getuid?.() === 0;
    if (asRoot) for (const [p, mode] of [[dir, 0o755], [path.join(dir, "users.txt"), 0o644], [path.join(dir, "pgbouncer.ini"), 0o644]] as const) await chmod(p, mode);
    const child = spawn(PGBOUNCER, [...(asRoot ? ["-u", "postgres"] : []), path.join(dir, "pgbouncer.ini")], { stdio: ["ignore", "pipe", "pipe"] });
    children.push(child);
    let output = "";
    child.stdout.setEncoding("utf8").on("data", (s: string) => (output += s));
    child.stderr.setEncoding("utf8").on("data", (s: string) => (output += s));
    await waitUntil("PgBouncer to accept connections", async () => {
      if (child.exitCode !== null) throw new Error(`PgBouncer exited: ${output}`);
      const probe = new pg.Client({ connectionString: bouncerUrl(db.name) });
      try {
        await probe.connect();
        await probe.query("SELECT 1");
        return true;
      } finally {
        await probe.end().catch(() => undefined);
      }
    });
  });

  const bouncerUrl = (name: string) => {
    const u = new URL(testDatabaseUrl());
    u.hostname = "127.0.0.1";
    u.port = String(bouncerPort);
    u.password = "";
    u.pathname = `/${name}`;
    return u.toString();
  };

  it("calls, a task, the console and a change heard by the change bus all work; the transactions went through PgBouncer", async () => {
    const { app, agent, cookie } = await replica("pgbouncer", {
      DATABASE_URL: bouncerUrl(db.name),
      DATABASE_DIRECT_URL: db.url,
      DATABASE_POOL_MODE: "transaction",
      TASK_THRESHOLD_MS: "1",
    });
    // Claims (batched and lone), rate limits and audit through transaction pooling; tasks adopted on the way.
    await burst(agent, 30, "pgb");
    const single = await agent.callTool({ name: "flaky__counted", arguments: { name: "lone" } });
    expect(single.isError ?? false, JSON.stringify(single)).toBe(false);

    // A policy change is heard through LISTEN on the direct URL: the tool disabled refuses the next call.
    const disabled = await apiRequest(app.baseUrl, "/api/v1/tools/flaky__counted", { cookie, method: "PATCH", body: { enabled: false } });
    expect(disabled.status, disabled.text).toBe(200);
    const refused = await agent.callTool({ name: "flaky__counted", arguments: { name: "after" } });
    expect(errorMeta(refused).code).toMatch(/tool_disabled|unknown_tool/);

    // The audit trail has every call.
    const direct = new pg.Client({ connectionString: db.url });
    await direct.connect();
    try {
      const { rows } = await direct.query<{ n: string }>("SELECT count(*) AS n FROM audit_events WHERE \"toolName\" = 'flaky__counted' AND status <> 'started'");
      expect(Number(rows[0]!.n)).toBeGreaterThanOrEqual(32);
    } finally {
      await direct.end();
    }
    // PgBouncer's own count of transactions for this database.
    const console_ = new pg.Client({ connectionString: bouncerUrl("pgbouncer") });
    await console_.connect();
    try {
      const stats = await console_.query<{ database: string; total_xact_count: string }>("SHOW STATS");
      expect(Number(stats.rows.find((r) => r.database === db.name)?.total_xact_count ?? 0)).toBeGreaterThan(50);
    } finally {
      await console_.end();
    }
    await agent.close();
    expect(await app.stop("SIGTERM")).toEqual({ code: 0, signal: null });
  }, 240_000);
});
