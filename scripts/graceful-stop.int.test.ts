// A replica leaving a rolling restart (SIGTERM from Kubernetes): `portcullis start` says it is ready only when
// every part is up, then on SIGTERM stops accepting, ends the MCP notification streams (clients reopen them on
// another replica), lets a call in flight finish and answer within the grace period, hands a task still running
// at the end of the grace period back to the queue, and exits 0.
import { writeFile } from "node:fs/promises";
import path from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { TReadiness, TServer } from "../lib/schemas";
import { freePort, startEmbeddedPostgres, type EmbeddedDatabase } from "../server/db/embedded";
import { applyMigrations } from "../server/db/migrate";
import { createLogger } from "../server/logger";
import { RUNNER_LOCK_CLASS, WORKER_LOCK_CLASS } from "../server/tasks/task-scope";
import { fixtureEvents, misbehavingServer } from "../server/test/gateway-harness";
import { apiRequest } from "./test-support/api-request";
import { REPO_ROOT } from "./test-support/run-cli";
import { signIn } from "./test-support/sign-in";
import { startApp, stopAllApps, type AppProcess } from "./test-support/start-app";
import { makeTempDir, removeTempDirs } from "./test-support/temp-dir";
import { waitUntil } from "./test-support/wait-until";

const ADMIN = { email: "root@example.com", password: "admin-password-1" };

let database: EmbeddedDatabase;
let fixtureDir = "";

let pgDir = "";
let pgPort = 0;

beforeAll(async () => {
  pgDir = await makeTempDir("graceful-pg");
  pgPort = await freePort();
  database = await startEmbeddedPostgres({ dataDir: pgDir, port: pgPort, logger: createLogger("silent") });
  await applyMigrations({ databaseUrl: database.url, prismaDir: path.join(REPO_ROOT, "prisma") });
  fixtureDir = await makeTempDir("graceful-fixture");
});
afterAll(async () => {
  await stopAllApps();
  await database?.stop();
  await removeTempDirs();
});

/** A replica on the shared database, with the fixture server registered (once) and an agent session's client. */
async function replica(label: string, env: Record<string, string>): Promise<{ app: AppProcess; client: Client; token: string; cookie: string }> {
  const app = await startApp({
    env: { DATA_DIR: await makeTempDir(label), DATABASE_URL: database.url, ADMIN_EMAIL: ADMIN.email, ADMIN_PASSWORD: ADMIN.password, PORTCULLIS_NO_DEMO: "1", ...env },
  });
  const session = await signIn(app.baseUrl, ADMIN.email, ADMIN.password);
  const cookie = session.jar.header();
  const existing = await apiRequest<{ items: TServer[] }>(app.baseUrl, "/api/v1/servers", { cookie });
  if (!existing.body.items.some((s) => s.slug === "flaky")) {
    const created = await apiRequest(app.baseUrl, "/api/v1/servers", { cookie, body: misbehavingServer(fixtureDir) });
    expect(created.status, created.text).toBe(201);
  }
  await waitUntil(
    "the fixture server HEALTHY",
    async () => {
      const res = await apiRequest<{ items: TServer[] }>(app.baseUrl, "/api/v1/servers", { cookie });
      return res.body.items.find((s) => s.slug === "flaky")?.status === "HEALTHY" ? true : undefined;
    },
    { timeoutMs: 60_000, intervalMs: 200 },
  );
  const minted = await apiRequest<{ token: string }>(app.baseUrl, "/api/v1/sessions", { cookie, body: { agentId: label, tools: ["flaky__*"] } });
  expect(minted.status, minted.text).toBe(201);
  const client = new Client({ name: label, version: "1.0.0" });
  await client.connect(new StreamableHTTPClientTransport(new URL("/mcp", app.baseUrl), { requestInit: { headers: { authorization: `Bearer ${minted.body.token}` } } }));
  return { app, client, token: minted.body.token, cookie };
}

const started = (tag: string) => () => (fixtureEvents(fixtureDir).some((e) => e.event === "slow.start" && (e.args as { tag?: string } | undefined)?.tag === tag) ? true : undefined);

describe("portcullis start – readiness and a graceful stop", () => {
  it("GET /api/ready: 200 with every check once up; on SIGTERM the notification stream ends, new connections are refused, the call in flight answers, exit 0", async () => {
    const { app, client, token, cookie } = await replica("drain-finish", { TASK_THRESHOLD_MS: "600000", SHUTDOWN_GRACE_MS: "120000" });
    const ready = await waitUntil("GET /api/ready 200", async () => {
      const res = await apiRequest<TReadiness>(app.baseUrl, "/api/ready");
      return res.status === 200 ? res : undefined;
    });
    expect(ready.body).toEqual({ status: "ready", checks: { migrations: true, database: true, changeBus: true, tasks: true, upstreams: true } });
    expect(ready.headers.get("cache-control")).toBe("no-store");
    // Answered before Next.js (server/http/fast-path.ts) as app/api/ready/route.ts answers it: the request id echoed.
    const probed = await apiRequest<TReadiness>(app.baseUrl, "/api/ready?from=probe", { headers: { "x-request-id": "probe-1" } });
    expect([probed.status, probed.headers.get("x-request-id"), probed.headers.get("content-type")]).toEqual([200, "probe-1", "application/json"]);

    // A notification stream of the agent's MCP session, read to its end.
    const sessionId = (client.transport as StreamableHTTPClientTransport).sessionId!;
    const stream = await fetch(`${app.baseUrl}/mcp`, {
      headers: { authorization: `Bearer ${token}`, accept: "text/event-stream", "mcp-session-id": sessionId, "mcp-protocol-version": "2025-11-25" },
    });
    expect(stream.status).toBe(200);
    const streamEnded = stream.text();
    // And a console's event feed (the approvers' queue), which would otherwise hold the stop for the grace period.
    const feed = await fetch(`${app.baseUrl}/api/v1/approvals/events`, { headers: { cookie, accept: "text/event-stream" } });
    expect(feed.status).toBe(200);
    const feedEnded = feed.text().then(
      () => "ended",
      () => "cut",
    );

    const release = path.join(fixtureDir, "release-finish");
    const call = client.callTool({ name: "flaky__slow_read", arguments: { until: release, tag: "finish" } }, undefined, { timeout: 120_000 });
    await waitUntil("the call to reach the upstream", started("finish"));

    process.kill(app.pid, "SIGTERM");
    await streamEnded;
    expect(["ended", "cut"]).toContain(await feedEnded);
    await waitUntil("new connections to be refused", async () => {
      try {
        await fetch(`${app.baseUrl}/api/health`, { signal: AbortSignal.timeout(5_000) });
        return undefined;
      } catch (err) {
        return /ECONNREFUSED/.test(String((err as { cause?: unknown }).cause ?? err)) ? true : undefined;
      }
    });
    expect(app.hasExited()).toBe(false);

    await writeFile(release, "");
    const result = await call;
    expect(result.isError ?? false, JSON.stringify(result)).toBe(false);
    expect(JSON.stringify(result.content)).toContain("slow_read finish done");
    expect(await app.exited).toEqual({ code: 0, signal: null });
    expect(app.output()).toContain("shutting down: draining");
    expect(app.output()).not.toContain("were cut");
  }, 240_000);

  it("a task still running when the grace period ends goes back to the queue at once (PENDING, event `recovered`), exit 0", async () => {
    const { app, client } = await replica("drain-handback", { TASK_THRESHOLD_MS: "1", SHUTDOWN_GRACE_MS: "0" });
    const release = path.join(fixtureDir, "release-handback");
    const accepted = await client.callTool({ name: "flaky__slow_read", arguments: { until: release, tag: "handback" } });
    const taskId = (accepted.structuredContent as { task_id?: string } | undefined)?.task_id;
    expect(taskId, JSON.stringify(accepted)).toEqual(expect.any(String));
    await waitUntil("the task's call to reach the upstream", started("handback"));

    process.kill(app.pid, "SIGTERM");
    expect(await app.exited).toEqual({ code: 0, signal: null });
    expect(app.output()).toContain("handed this process's running tasks back to the queue");

    const db = new pg.Client({ connectionString: database.url });
    await db.connect();
    try {
      const { rows } = await db.query<{ status: string; runnerId: string | null }>('SELECT status, "runnerId" FROM tasks WHERE id = $1', [taskId]);
      expect(rows).toEqual([{ status: "PENDING", runnerId: null }]);
      const events = await db.query<{ type: string; data: { action?: string } }>("SELECT type, data FROM task_events WHERE \"taskId\" = $1 ORDER BY id", [taskId]);
      expect(events.rows.at(-1)).toMatchObject({ type: "recovered", data: { action: "requeued" } });
      // Its job, which this process's worker had locked, was let go on the way out (graphile-worker's stop ends
      // it): nothing is left for another process's sweep to free (unlockDeadWorkers, worker-locks.ts).
      const jobs = await db.query<{ locked_by: string | null }>("SELECT locked_by FROM graphile_worker._private_jobs WHERE payload->>'taskId' = $1", [taskId]);
      expect(jobs.rows.length).toBeGreaterThan(0);
      expect(jobs.rows.filter((job) => job.locked_by !== null)).toEqual([]);
    } finally {
      await db.end();
    }
    // The upstream heard the call stop.
    expect(fixtureEvents(fixtureDir).some((e) => e.event === "cancelled" && (e.args as { tag?: string } | undefined)?.tag === "handback")).toBe(true);
  }, 240_000);

  it("the database down: an MCP request is refused at once with 503 and Retry-After, and served again once it is back", async () => {
    const { app, client, token } = await replica("db-down", { TASK_THRESHOLD_MS: "1", SHUTDOWN_GRACE_MS: "2000" });
    const sessionId = (client.transport as StreamableHTTPClientTransport).sessionId!;
    const call = (name: string) =>
      fetch(`${app.baseUrl}/mcp`, {
        method: "POST",
        headers: { authorization: `Bearer ${token}`, accept: "application/json, text/event-stream", "content-type": "application/json", "mcp-session-id": sessionId, "mcp-protocol-version": "2025-11-25" },
        body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "flaky__counted", arguments: { name } } }),
        signal: AbortSignal.timeout(30_000),
      });
    expect((await call("before")).status).toBe(200);
    // A task running here when the database goes away: its outcome must be written once it is back.
    const release = path.join(fixtureDir, "release-db-down");
    const accepted = await client.callTool({ name: "flaky__slow_read", arguments: { until: release, tag: "db-down" } });
    const taskId = (accepted.structuredContent as { task_id?: string } | undefined)?.task_id;
    expect(taskId, JSON.stringify(accepted)).toEqual(expect.any(String));
    await waitUntil("the task's call to reach the upstream", started("db-down"));
    await database.stop();
    try {
      const res = await waitUntil("a refusal while the database is down", async () => {
        const r = await call("during");
        return r.status === 200 ? undefined : r;
      });
      expect(res.status).toBe(503);
      expect(res.headers.get("retry-after")).toBe("2");
      expect(await res.json()).toMatchObject({ jsonrpc: "2.0", error: { code: -32603, message: expect.stringContaining("database is unavailable") as string } });
      // The task's call ends while the database is away: its outcome cannot be written yet.
      await writeFile(release, "");
      await waitUntil("the task's call to end", () => (fixtureEvents(fixtureDir).some((e) => e.event === "slow.done" && (e.args as { tag?: string } | undefined)?.tag === "db-down") ? true : undefined));
    } finally {
      database = await startEmbeddedPostgres({ dataDir: pgDir, port: pgPort, logger: createLogger("silent") });
    }
    const back = await waitUntil("the call served again", async () => {
      const r = await call("after");
      return r.status === 200 ? r : undefined;
    }, { timeoutMs: 30_000 });
    expect(back.status).toBe(200);
    // Ready again: the change bus listens again however long the database was away (it gave up after one try).
    await waitUntil("GET /api/ready 200 again", async () => ((await apiRequest(app.baseUrl, "/api/ready")).status === 200 ? true : undefined), { timeoutMs: 30_000 });
    // The task runner's liveness lock is held again (lost with its connection, other processes would take this live
    // one for dead and recover its running tasks and claims), and so are its eight workers' (else their jobs would
    // be freed under them).
    await waitUntil("the runner's, its workers' and the audit owner's locks held again", async () => {
      const db = new pg.Client({ connectionString: database.url });
      await db.connect();
      try {
        // The runner's lock and the audit owner's ("pcaw"), both taken again, and one per worker.
        const { rows } = await db.query<{ n: string }>("SELECT count(*) AS n FROM pg_locks WHERE locktype = 'advisory' AND classid = ANY($1::oid[]) AND objsubid = 2 AND granted", [[RUNNER_LOCK_CLASS, 0x70636177]]);
        const workers = await db.query<{ n: string }>("SELECT count(*) AS n FROM pg_locks WHERE locktype = 'advisory' AND classid = $1::oid AND objsubid = 2 AND granted", [WORKER_LOCK_CLASS]);
        return Number(rows[0]!.n) >= 2 && Number(workers.rows[0]!.n) === 8 ? true : undefined;
      } finally {
        await db.end();
      }
    }, { timeoutMs: 30_000 });
    // The outcome written once the database was back (it stayed RUNNING for good: nobody else may end a live
    // process's task).
    await waitUntil("the task SUCCEEDED", async () => {
      const db = new pg.Client({ connectionString: database.url });
      await db.connect();
      try {
        const { rows } = await db.query<{ status: string }>("SELECT status FROM tasks WHERE id = $1", [taskId]);
        return rows[0]?.status === "SUCCEEDED" ? true : undefined;
      } finally {
        await db.end();
      }
    }, { timeoutMs: 30_000 });
    expect(app.hasExited()).toBe(false);

    // A graceful stop with a task running, after the database came back: the process exits once the grace period
    // (2 s) ends, and the task goes back to the queue. (Its workers' stop was seen never to end here, which held
    // the process until it was killed; server/tasks/task-engine.ts bounds the wait.)
    const stuck = await client.callTool({ name: "flaky__slow_read", arguments: { until: path.join(fixtureDir, "never-released"), tag: "db-down-stop" } });
    const stuckId = (stuck.structuredContent as { task_id?: string } | undefined)?.task_id;
    expect(stuckId, JSON.stringify(stuck)).toEqual(expect.any(String));
    await waitUntil("the last task's call to reach the upstream", started("db-down-stop"));
    const stopAsked = Date.now();
    expect(await app.stop("SIGTERM", 60_000)).toEqual({ code: 0, signal: null });
    console.log(`stopped ${Date.now() - stopAsked} ms after SIGTERM; ${app.output().includes("the task workers did not stop") ? "the workers' stop was bounded" : "the workers stopped"}`);
    expect(Date.now() - stopAsked).toBeLessThan(20_000);
    const db = new pg.Client({ connectionString: database.url });
    await db.connect();
    try {
      const { rows } = await db.query<{ status: string }>("SELECT status FROM tasks WHERE id = $1", [stuckId]);
      expect(rows[0]?.status).toBe("PENDING");
    } finally {
      await db.end();
    }
  }, 240_000);
});

