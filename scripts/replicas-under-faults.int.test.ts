// Proof under faults (issue 25): three `portcullis start` replicas on one PostgreSQL behind a real HAProxy (Debian's;
// .ci/run installs it), agents on the SDK client spread across the replicas, a steady load of tool calls — plain
// calls, calls that become tasks, HIGH-tier calls held for approval and approved by a person — while a rolling
// restart replaces every replica, one replica is killed with SIGKILL, PostgreSQL is restarted and the upstream
// stdio servers are killed again and again. After each fault: every answered call has exactly one audit record and
// reached the upstream exactly once, no call reached it twice, no task is left RUNNING, every approval request
// is still there, and no HTTP 5xx went out without Retry-After. The figures are printed (docs/operations.md).
import { spawn, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import { EventEmitter, once } from "node:events";
import { existsSync } from "node:fs";
import { writeFile } from "node:fs/promises";
import path from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { TServer } from "../lib/schemas";
import { freePort, startEmbeddedPostgres, type EmbeddedDatabase } from "../server/db/embedded";
import { applyMigrations } from "../server/db/migrate";
import { createLogger } from "../server/logger";
import { compiledFixture, errorMeta, fixtureEvents, misbehavingServer } from "../server/test/gateway-harness";
import { apiRequest } from "./test-support/api-request";
import { findProcesses } from "./test-support/find-processes";
import { REPO_ROOT } from "./test-support/run-cli";
import { signIn } from "./test-support/sign-in";
import { spawnApp, stopAllApps, type AppProcess } from "./test-support/start-app";
import { makeTempDir, removeTempDirs } from "./test-support/temp-dir";
import { waitUntil } from "./test-support/wait-until";

const HAPROXY = "/usr/sbin/haproxy";
const ADMIN = { email: "root@example.com", password: "admin-password-1" };
const APPROVER = { email: "approver@example.com", password: "approver-password-1" };
const AGENTS = 4;

type Outcome = { tag: string; tool: "counted" | "slow_write" | "slow_read"; kind: "ok" | "tool_error" | "failed"; code?: string; error?: string; ms: number; at: number; taskId?: string; approvalId?: string };
type Http5xx = { status: number; retryAfter: string | null; url: string; body: string };

let database: EmbeddedDatabase;
let pgDir = "";
let pgPort = 0;
let fixtureDir = "";
let lbPort = 0;
let haproxy: ChildProcess | undefined;
const replicas: { port: number; dataDir: string; app: AppProcess }[] = [];
const env: Record<string, string> = {};
const http5xx: Http5xx[] = [];
const outcomes: Outcome[] = [];
const lb = () => `http://127.0.0.1:${String(lbPort)}`;

async function startReplica(port: number, dataDir: string): Promise<AppProcess> {
  const app = await spawnApp({ port, env: { ...env, DATA_DIR: dataDir } });
  await app.ready(120_000);
  const started = Date.now();
  try {
    // A replica that is not ready says which of its parts are not up (the answer's `checks`).
    await waitUntil(`replica :${String(port)} ready`, async () => {
      const res = await apiRequest(`http://127.0.0.1:${String(port)}`, "/api/ready");
      if (res.status !== 200) throw new Error(`GET /api/ready ${String(res.status)} ${res.text}`);
      return true;
    }, { timeoutMs: 60_000, intervalMs: 100 });
  } catch (err) {
    throw new Error(`${(err as Error).message}\n--- its output:\n${app.output().slice(-6000)}`, { cause: err });
  }
  console.log(`replica :${String(port)}: ready ${String(Date.now() - started)} ms after its "ready" log line`);
  return app;
}

beforeAll(async () => {
  if (!existsSync(HAPROXY)) throw new Error(`${HAPROXY} is missing: apt-get install haproxy (.ci/run does)`);
  pgDir = await makeTempDir("faults-pg");
  pgPort = await freePort();
  database = await startEmbeddedPostgres({ dataDir: pgDir, port: pgPort, logger: createLogger("silent") });
  await applyMigrations({ databaseUrl: database.url, prismaDir: path.join(REPO_ROOT, "prisma") });
  fixtureDir = await makeTempDir("faults-fixture");
  lbPort = await freePort();
  Object.assign(env, {
    DATABASE_URL: database.url,
    ADMIN_EMAIL: ADMIN.email,
    ADMIN_PASSWORD: ADMIN.password,
    PORTCULLIS_NO_DEMO: "1",
    // Every replica signs and decrypts alike.
    NEXTAUTH_SECRET: randomBytes(32).toString("base64url"),
    SECRETS_KEY: randomBytes(32).toString("base64"),
    PUBLIC_URL: lb(),
    TASK_THRESHOLD_MS: "150",
    TASK_SWEEP_INTERVAL_MS: "500",
    SHUTDOWN_GRACE_MS: "10000",
    RATE_LIMIT_SESSION_PER_MINUTE: "100000",
    RATE_LIMIT_TOOL_PER_MINUTE: "100000",
  });
  for (let i = 0; i < 3; i++) replicas.push({ port: await freePort(), dataDir: await makeTempDir(`faults-r${String(i)}`), app: undefined as unknown as AppProcess });
  // All three at once: they migrate one at a time (D114) and come up together.
  await Promise.all(replicas.map(async (r) => (r.app = await startReplica(r.port, r.dataDir))));

  const cfg = path.join(await makeTempDir("faults-haproxy"), "haproxy.cfg");
  await writeFile(
    cfg,
    [
      "global",
      "  maxconn 2000",
      "defaults",
      "  mode http",
      "  timeout connect 2s",
      "  timeout client 120s",
      "  timeout server 120s",
      "  retries 3",
      "  option redispatch",
      // A request that could not reach a replica (refused: it is draining or gone) goes to another one. Never
      // retry one that may have reached it (empty-response, response-timeout): an MCP POST is not idempotent,
      // and a retried call whose first attempt ran is a second run (this suite saw it with empty-response).
      "  retry-on conn-failure",
      "frontend mcp",
      `  bind 127.0.0.1:${String(lbPort)}`,
      "  default_backend replicas",
      // HAProxy's own errors (a replica killed mid-answer: 502) say when to try again, as Portcullis's do.
      "  http-after-response set-header Retry-After 1 if { status 502:504 } !{ res.hdr(retry-after) -m found }",
      "backend replicas",
      "  balance roundrobin",
      "  option httpchk GET /api/ready",
      "  http-check expect status 200",
      "  default-server inter 300ms fall 1 rise 1",
      ...replicas.map((r, i) => `  server r${String(i)} 127.0.0.1:${String(r.port)} check`),
      "",
    ].join("\n"),
  );
  haproxy = spawn(HAPROXY, ["-db", "-f", cfg], { stdio: ["ignore", "pipe", "pipe"] });
  await waitUntil("HAProxy to answer", async () => ((await apiRequest(lb(), "/api/ready")).status === 200 ? true : undefined), { intervalMs: 100 });
}, 600_000);

afterAll(async () => {
  haproxy?.kill("SIGKILL");
  await stopAllApps();
  await database?.stop().catch(() => undefined);
  await removeTempDirs();
});

/** A fetch that records every 5xx and its Retry-After, as the agents' transport saw it. */
const recordingFetch: typeof fetch = async (input, init) => {
  const res = await fetch(input, init);
  if (res.status >= 500) http5xx.push({ status: res.status, retryAfter: res.headers.get("retry-after"), url: input instanceof Request ? input.url : input.toString(), body: (await res.clone().text()).slice(0, 300) });
  return res;
};

async function agentClient(cookie: string, i: number): Promise<Client> {
  const minted = await apiRequest<{ token: string }>(lb(), "/api/v1/sessions", { cookie, body: { agentId: `faults-${String(i)}`, tools: ["flaky__*"] } });
  expect(minted.status, minted.text).toBe(201);
  const client = new Client({ name: `faults-${String(i)}`, version: "1.0.0" });
  await client.connect(new StreamableHTTPClientTransport(new URL("/mcp", lb()), { fetch: recordingFetch, requestInit: { headers: { authorization: `Bearer ${minted.body.token}` } } }));
  return client;
}

let counter = 0;
/** One agent's steady load until `stop`: 70% plain calls, 20% calls that become tasks, 10% held for approval. */
async function load(client: Client, stop: { stopped: boolean }, into: Outcome[], progress: EventEmitter): Promise<void> {
  while (!stop.stopped) {
    const n = counter++;
    const tag = `t${String(n)}`;
    const tool = n % 10 === 9 ? "slow_read" : n % 10 >= 7 ? "slow_write" : "counted";
    const args = tool === "counted" ? { name: tag } : { tag, ms: 300 };
    const t = Date.now();
    try {
      const r = await client.callTool({ name: `flaky__${tool}`, arguments: args }, undefined, { timeout: 30_000 });
      const sc = r.structuredContent as { task_id?: string; approval_id?: string } | undefined;
      const o: Outcome = { tag, tool, kind: r.isError ? "tool_error" : "ok", ms: Date.now() - t, at: Date.now() };
      if (r.isError) o.code = errorMeta(r).code;
      if (sc?.task_id) o.taskId = sc.task_id;
      if (sc?.approval_id) o.approvalId = sc.approval_id;
      into.push(o);
    } catch (err) {
      into.push({ tag, tool, kind: "failed", error: err instanceof Error ? err.message : String(err), ms: Date.now() - t, at: Date.now() });
    }
    progress.emit("outcome");
  }
}

/** Approves every pending request. */
async function approvePending(cookie: string): Promise<void> {
  const res = await apiRequest<{ items: { id: string }[] }>(lb(), "/api/v1/approvals?status=PENDING", { cookie }).catch(() => undefined);
  for (const a of res?.body?.items ?? []) await apiRequest(lb(), `/api/v1/approvals/${a.id}/decision`, { cookie, body: { decision: "approve" } }).catch(() => undefined);
}

/**
 * Approves every pending request until `stop` aborts, as the console's queue does: it follows the approval events
 * (GET /api/v1/approvals/events, through the balancer, from whichever replica) and reads the pending list on each
 * event and on every (re)connect, since events may have been missed while it was away. A stream the faults cut is
 * opened again once an agent's next call has ended (a held call is one), so a dead balancer is not hammered.
 */
async function approve(cookie: string, stop: AbortSignal, progress: EventEmitter): Promise<void> {
  while (!stop.aborted) {
    try {
      const res = await fetch(`${lb()}/api/v1/approvals/events`, { headers: { cookie, accept: "text/event-stream" }, signal: stop });
      if (!res.ok || !res.body) throw new Error(`approval events answered ${String(res.status)}`);
      await approvePending(cookie);
      const decoder = new TextDecoder();
      let buffered = "";
      const reader = res.body.getReader();
      for (let read = await reader.read(); !read.done; read = await reader.read()) {
        buffered += decoder.decode(read.value, { stream: true });
        const frames = buffered.split("\n\n");
        buffered = frames.pop() ?? "";
        // `: ping` keep-alives change nothing; an approval or resync event may mean new pending requests.
        if (frames.some((f) => f.startsWith("event:"))) await approvePending(cookie);
      }
    } catch {
      // Cut by a fault (or by stop): go on below.
    }
    if (!stop.aborted) await once(progress, "outcome", { signal: stop }).catch(() => undefined);
  }
}

/** `longestWithoutSuccessMs`: the longest time no call succeeded (how long the fault kept agents from working). */
type Report = { scenario: string; calls: number; ok: number; toolErrors: Record<string, number>; failed: Record<string, number>; p50: number; max: number; longestWithoutSuccessMs: number };

/** Runs the load while `fault` happens; then checks every invariant against the audit log, the upstream and the tasks. */
async function underLoad(scenario: string, cookie: string, approverCookie: string, clients: Client[], fault: (seen: Outcome[]) => Promise<void>): Promise<Report> {
  const stop = { stopped: false };
  const stopApprover = new AbortController();
  const progress = new EventEmitter();
  const mine: Outcome[] = [];
  http5xx.length = 0;
  const agents = clients.map((c) => load(c, stop, mine, progress));
  const approver = approve(approverCookie, stopApprover.signal, progress);
  // Some load before the fault, the fault, some after it.
  await waitUntil(`${scenario}: load running`, () => (mine.length >= 20 ? true : undefined), { timeoutMs: 60_000, intervalMs: 50 });
  await fault(mine);
  const after = mine.length;
  await waitUntil(`${scenario}: load after the fault`, () => (mine.length >= after + 20 ? true : undefined), { timeoutMs: 60_000, intervalMs: 50 });
  stop.stopped = true;
  await Promise.all(agents);
  stopApprover.abort();
  await approver;
  outcomes.push(...mine);
  await checkInvariants(scenario, mine, [...http5xx]);
  const ms = mine.map((o) => o.ms).sort((a, b) => a - b);
  const count = (xs: Outcome[], key: (o: Outcome) => string) => xs.reduce<Record<string, number>>((acc, o) => ((acc[key(o)] = (acc[key(o)] ?? 0) + 1), acc), {});
  return {
    scenario,
    calls: mine.length,
    ok: mine.filter((o) => o.kind === "ok").length,
    toolErrors: count(mine.filter((o) => o.kind === "tool_error"), (o) => o.code ?? "?"),
    failed: count(mine.filter((o) => o.kind === "failed"), (o) => (o.error ?? "?").slice(0, 60)),
    p50: ms[Math.floor(ms.length / 2)] ?? 0,
    max: ms.at(-1) ?? 0,
    longestWithoutSuccessMs: mine
      .filter((o) => o.kind === "ok")
      .map((o) => o.at)
      .sort((a, b) => a - b)
      .reduce((acc, at, i, all) => (i === 0 ? 0 : Math.max(acc, at - all[i - 1]!)), 0),
  };
}

async function checkInvariants(scenario: string, mine: Outcome[], http: Http5xx[]): Promise<void> {
  const db = new pg.Client({ connectionString: database.url });
  await db.connect();
  try {
    // No task left RUNNING or queued once the sweep has had its turn (a killed replica's tasks recover elsewhere).
    let stuck: unknown[] = [];
    await waitUntil(`${scenario}: no task RUNNING or PENDING`, async () => {
      const { rows } = await db.query(`SELECT t.id, t.status, t.origin, t."toolName", t."runnerId", t."jobId", t.attempts, t."updatedAt",
        (SELECT count(*) FROM graphile_worker._private_jobs j WHERE j.payload->>'taskId' = t.id) AS jobs
        FROM tasks t WHERE t.status IN ('RUNNING', 'PENDING')`);
      stuck = rows;
      return rows.length === 0 ? true : undefined;
    }, { timeoutMs: 60_000, intervalMs: 200 }).catch((err: unknown) => {
      throw new Error(`${err instanceof Error ? err.message : String(err)}: ${JSON.stringify(stuck)}`);
    });
    // Records written while the database was away are replayed from the spool: wait for the books to balance.
    let violations: string[] = [];
    await waitUntil(
      `${scenario}: every invariant`,
      async () => {
        violations = await findViolations(db, mine);
        return violations.length === 0 ? true : undefined;
      },
      { timeoutMs: 30_000, intervalMs: 500 },
    ).catch(() => undefined);
    expect(violations, scenario).toEqual([]);
  } finally {
    await db.end();
  }
  for (const e of http) expect(e.retryAfter, `${scenario}: ${String(e.status)} ${e.url} without Retry-After: ${e.body}${failureLogged(e.body)}`).not.toBeNull();
}

/** The replica's log line of the request an answer names ("… (request <id>)"), so a failure says what threw. */
function failureLogged(body: string): string {
  const id = /\(request ([0-9a-f-]{36})\)/.exec(body)?.[1];
  if (!id) return "";
  const line = replicas.flatMap((r) => r.app.output().split("\n")).find((l) => l.includes(id));
  return line ? `\nlogged: ${line.slice(0, 2000)}` : "";
}

async function findViolations(db: pg.Client, mine: Outcome[]): Promise<string[]> {
  const out: string[] = [];
  const { rows: audit } = await db.query<{ tag: string; n: string }>(
    `SELECT coalesce(arguments->>'name', arguments->>'tag') AS tag, count(*) AS n FROM audit_events
      WHERE action = 'tool.called' AND status <> 'started' AND coalesce(arguments->>'name', arguments->>'tag') = ANY($1::text[]) GROUP BY 1`,
    [mine.map((o) => o.tag)],
  );
  const audited = new Map(audit.map((r) => [r.tag, Number(r.n)]));
  const calls = new Map<string, number>();
  for (const e of fixtureEvents(fixtureDir)) {
    if (e.event !== "call") continue;
    const a = e.args as { name?: string; tag?: string } | undefined;
    const tag = a?.name ?? a?.tag;
    if (tag) calls.set(tag, (calls.get(tag) ?? 0) + 1);
  }
  for (const o of mine) {
    const records = audited.get(o.tag) ?? 0;
    const reached = calls.get(o.tag) ?? 0;
    // An answer (a result, a task handle or a tool error) always has its record; a call whose answer never came
    // has at most one.
    if (o.kind === "failed" ? records > 1 : records !== 1) out.push(`${o.tag} (${o.tool}, ${o.kind} ${o.code ?? o.error ?? ""}): ${String(records)} audit records`);
    // Neither a plain call nor slow_write (neither read-only nor idempotent) ever reaches the upstream twice.
    if (o.tool !== "slow_read" && reached > 1) out.push(`${o.tag} (${o.tool}) reached the upstream ${String(reached)} times`);
    // A plain call answered with its result reached it exactly once (one answered with a task handle may have failed later).
    if (o.kind === "ok" && o.tool === "counted" && !o.taskId && reached !== 1) out.push(`${o.tag} answered but reached the upstream ${String(reached)} times`);
  }
  // A failure reaches the agent in the gateway's words, never as the database's text (server/mcp/public-error.ts).
  for (const o of mine) if (o.error && /prisma|invocation|SQLSTATE|relation "|pg_/i.test(o.error)) out.push(`${o.tag} answered with the database's text: ${o.error.slice(0, 200)}`);
  // Every approval request an agent was handed is still there.
  const approvalIds = mine.flatMap((o) => (o.approvalId ? [o.approvalId] : []));
  const { rows: approvals } = await db.query<{ id: string }>("SELECT id FROM approvals WHERE id = ANY($1::text[])", [approvalIds]);
  if (approvals.length !== approvalIds.length) out.push(`${String(approvalIds.length - approvals.length)} approval requests lost`);
  return out;
}

describe("three replicas behind HAProxy under faults", () => {
  let cookie = "";
  let approverCookie = "";
  let clients: Client[] = [];
  const reports: Report[] = [];

  beforeAll(async () => {
    cookie = (await signIn(lb(), ADMIN.email, ADMIN.password)).jar.header();
    const created = await apiRequest(lb(), "/api/v1/servers", { cookie, body: misbehavingServer(fixtureDir) });
    expect(created.status, created.text).toBe(201);
    await waitUntil("the fixture server HEALTHY", async () => ((await apiRequest<{ items: TServer[] }>(lb(), "/api/v1/servers", { cookie })).body.items.find((s) => s.slug === "flaky")?.status === "HEALTHY" ? true : undefined), { timeoutMs: 60_000, intervalMs: 200 });
    const high = await apiRequest(lb(), "/api/v1/tools/flaky__slow_read", { cookie, method: "PATCH", body: { riskTier: "HIGH" } });
    expect(high.status, high.text).toBe(200);
    const approver = await apiRequest(lb(), "/api/v1/users", { cookie, body: { email: APPROVER.email, role: "APPROVER", password: APPROVER.password } });
    expect(approver.status, approver.text).toBe(201);
    approverCookie = (await signIn(lb(), APPROVER.email, APPROVER.password)).jar.header();
    clients = await Promise.all(Array.from({ length: AGENTS }, (_, i) => agentClient(cookie, i)));
  }, 300_000);

  afterAll(() => {
    console.log(`replicas under faults:\n${JSON.stringify(reports, null, 1)}`);
  });

  it("a rolling restart (SIGTERM each replica in turn, its replacement ready before the next)", async () => {
    reports.push(
      await underLoad("rolling restart", cookie, approverCookie, clients, async () => {
        for (const r of replicas) {
          process.kill(r.app.pid, "SIGTERM");
          expect(await r.app.exited, r.app.output().slice(-2000)).toEqual({ code: 0, signal: null });
          r.app = await startReplica(r.port, r.dataDir);
        }
      }),
    );
  }, 600_000);

  it("one replica killed with SIGKILL: its running tasks recover on the others", async () => {
    reports.push(
      await underLoad("SIGKILL", cookie, approverCookie, clients, async () => {
        const r = replicas[1]!;
        process.kill(-r.app.pid, "SIGKILL");
        await r.app.exited;
        r.app = await startReplica(r.port, r.dataDir);
      }),
    );
  }, 600_000);

  it("PostgreSQL restarted: calls fail fast while it is down and work again after, no replica restarted", async () => {
    const pids = replicas.map((r) => r.app.pid);
    reports.push(
      await underLoad("PostgreSQL restart", cookie, approverCookie, clients, async () => {
        await database.stop();
        database = await startEmbeddedPostgres({ dataDir: pgDir, port: pgPort, logger: createLogger("silent") });
        await waitUntil("a replica ready again", async () => ((await apiRequest(lb(), "/api/ready")).status === 200 ? true : undefined), { timeoutMs: 60_000, intervalMs: 100 });
      }),
    );
    expect(replicas.map((r) => r.app.pid)).toEqual(pids);
    expect(replicas.every((r) => !r.app.hasExited())).toBe(true);
  }, 600_000);

  it("the upstream stdio servers killed five times", async () => {
    reports.push(
      await underLoad("upstream killed", cookie, approverCookie, clients, async (seen) => {
        for (let i = 0; i < 5; i++) {
          // The processes the replicas run now (restarted by their pools after the previous kill).
          const victims = await waitUntil(`fixture processes of ${compiledFixture()} running`, () => {
            const found = findProcesses(compiledFixture());
            return found.length > 0 ? found : undefined;
          }, { timeoutMs: 60_000, intervalMs: 50 });
          for (const v of victims) process.kill(v.pid, "SIGKILL");
          // Answered again by an upstream: plain calls with their own result (a task handle or a held call is
          // answered without one).
          const answered = () => seen.filter((o) => o.kind === "ok" && o.tool === "counted" && !o.taskId).length;
          const before = answered();
          await waitUntil("calls answered again", () => (answered() >= before + 5 ? true : undefined), { timeoutMs: 60_000, intervalMs: 50 });
        }
      }),
    );
  }, 600_000);
});
