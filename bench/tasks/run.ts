// Task benchmark: how fast the durable task engine takes calls of an async tool from submitted to finished,
// and how long a submitted task waits before a worker starts it, with graphile-worker's LISTEN/NOTIFY and, side
// by side in the same run, with polling only.
//
//   npx tsx bench/tasks/run.ts
//
// Processes: this one drives the load (SDK Client + StreamableHTTPClientTransport, one agent session token and
// MCP session per client) and reads the tasks table. The echo upstream (bench/gateway/echo-server.ts over HTTP),
// PostgreSQL (embedded, in a temp dir, with the fixtures) and each gateway process run in processes of their
// own. Phases, each with fresh gateway processes on the same database:
//   notify  one gateway process (the engine as shipped): a burst, then paced calls
//   poll    one gateway process whose workers do not LISTEN for jobs:insert: the same burst and paced calls
//   two     two gateway processes sharing the queue, the clients split between them: the burst
//
// Environment (all optional):
//   BENCH_TASKS=500               tasks per burst
//   BENCH_TASK_CLIENTS=8          concurrent agent clients in a burst (each its own session token)
//   BENCH_TASK_CONCURRENCY=8      graphile-worker workers per gateway process (TaskOptions.concurrency)
//   BENCH_TASK_STEADY=0.5         steady part: BENCH_TASK_PACED calls at this share of the burst's tasks/s, open
//                                 loop over all clients (0 skips it)
//   BENCH_TASK_PACED=100          paced calls (one client, one call at a time; 0 skips the paced part)
//   BENCH_TASK_PACE_MS=100        pause after each paced answer, so the workers are idle at every submit
//   BENCH_TASK_WARMUP=32          untimed tasks before each phase
//   BENCH_TASK_PHASES=notify,poll,two
//   BENCH_TASK_CPU_PROFILE=500    tasks of an extra burst in the notify phase under V8's sampling profiler (0: skip)
//   BENCH_TASK_DB_COST=300        times per statement of the notify phase's Prisma vs node-postgres comparison (0: skip)
//   BENCH_TASK_WAIT_S=300         how long a phase waits for its tasks to finish
//   BENCH_QUIET_WAIT_S=60         first wait (at most this long) for the machine to be under 15 % busy
//   BENCH_DEADLINE_S=1200         the whole run gives up (and cleans up) after this
//   BENCH_WRITE_DOCS=1            update docs/benchmarks.md between its bench:tasks markers (else print only)
import path from "node:path";
import { forkChild, REPO_ROOT, type ChildHandle } from "../gateway/child";
import { machineCpuMs, ownCpuMs, waitForQuiet } from "../gateway/proc-stats";
import { summarize } from "../gateway/stats";
import type { TaskProfileSummary } from "./cpu-profile";
import type { DbReady } from "./db-process";
import {
  closeAgents,
  openAgents,
  submitBurst,
  submitPaced,
  submitSteady,
  TaskTable,
  type Submitted,
  type TaskTimes,
} from "./driver";
import type { GatewayReady } from "./gateway-process";
import type { DbCostRow } from "./gateway-process";
import type { SqlCount } from "./pg-tap";
import { treeCpuMs } from "./proc";
import { phaseLabel, renderMarkdown, writeDocs, type PhaseRow, type TaskCpuProfile } from "./report";

const env = process.env;
function int(name: string, d: number, min = 1): number {
  const v = env[name] === undefined || env[name] === "" ? d : Number(env[name]);
  if (!Number.isInteger(v) || v < min) throw new Error(`${name} must be an integer ≥ ${min}`);
  return v;
}
const N = int("BENCH_TASKS", 500);
const C = int("BENCH_TASK_CLIENTS", 8);
const W = int("BENCH_TASK_CONCURRENCY", 8);
const M = int("BENCH_TASK_PACED", 100, 0);
const steadyShare = Number(env.BENCH_TASK_STEADY ?? 0.5);
if (!(steadyShare >= 0 && steadyShare <= 1)) throw new Error("BENCH_TASK_STEADY must be between 0 and 1");
const paceMs = int("BENCH_TASK_PACE_MS", 100, 0);
const warmup = int("BENCH_TASK_WARMUP", 32, 0);
const dbCostN = int("BENCH_TASK_DB_COST", 300, 0);
const profileN = int("BENCH_TASK_CPU_PROFILE", 500, 0);
const waitMs = int("BENCH_TASK_WAIT_S", 300) * 1000;
const deadlineMs = int("BENCH_DEADLINE_S", 1200) * 1000;
const PHASES = ["notify", "poll", "two"] as const;
type Phase = (typeof PHASES)[number];
const phases = (env.BENCH_TASK_PHASES ?? PHASES.join(",")).split(",").map((s) => s.trim()) as Phase[];
if (phases.some((p) => !PHASES.includes(p))) throw new Error(`BENCH_TASK_PHASES: one or more of ${PHASES.join(",")}`);
const TARGET_MS = 50;
const started = performance.now();
const log = (msg: string) => console.log(`[${((performance.now() - started) / 1000).toFixed(1)} s] ${msg}`);

const cleanups: (() => Promise<void>)[] = [];
async function cleanup() {
  for (const fn of cleanups.reverse()) await fn().catch((err: unknown) => console.error("cleanup:", err));
  cleanups.length = 0;
}
const deadline = setTimeout(() => {
  console.error(`bench: the run passed BENCH_DEADLINE_S (${deadlineMs / 1000} s); stopping.`);
  void cleanup().finally(() => process.exit(2));
}, deadlineMs);
for (const sig of ["SIGINT", "SIGTERM"] as const)
  process.on(sig, () => void cleanup().finally(() => process.exit(130)));
process.on("uncaughtException", (err) => {
  console.error("bench: crashed:", err);
  void cleanup().finally(() => process.exit(1));
});

/** Most tasks created and not yet started at one time. */
function maxBacklog(rows: TaskTimes[]): number {
  const ev: [number, number][] = [];
  for (const r of rows) {
    ev.push([r.createdAt, 1]);
    if (r.startedAt !== null) ev.push([r.startedAt, -1]);
  }
  ev.sort((a, b) => a[0] - b[0] || a[1] - b[1]);
  let n = 0;
  let max = 0;
  for (const [, d] of ev) max = Math.max(max, (n += d));
  return max;
}

const spans = (rows: TaskTimes[], pick: (r: TaskTimes) => number | null) => {
  const v = rows.map(pick).filter((x): x is number => x !== null);
  return summarize(Float64Array.from(v), v.length);
};

type Ctx = { db: ChildHandle<DbReady>; table: TaskTable; upstreamPid: number };

/** CPU of everything the benchmark runs, to be differenced over a phase. */
function cpuSnapshot(ctx: Ctx, gateways: ChildHandle<GatewayReady>[]) {
  const pg = ctx.db.ready.postmasterPid;
  return {
    gateway: gateways.reduce((sum, g) => sum + treeCpuMs(g.pid), 0),
    postgres: pg ? treeCpuMs(pg) : undefined,
    upstream: treeCpuMs(ctx.upstreamPid),
    driver: ownCpuMs(),
    dbChild: treeCpuMs(ctx.db.pid) - (pg ? treeCpuMs(pg) : 0),
    machine: machineCpuMs(),
  };
}

type Counts = { total: number; top: SqlCount[]; queued: SqlCount[] };

async function sqlCounts(gateways: ChildHandle<GatewayReady>[]): Promise<Counts> {
  const all = await Promise.all(gateways.map((g) => g.call<Counts>("sqlCounts")));
  const merge = (pick: (c: Counts) => SqlCount[]) => {
    const m = new Map<string, number>();
    for (const c of all) for (const s of pick(c)) m.set(s.statement, (m.get(s.statement) ?? 0) + s.count);
    return [...m.entries()].sort((a, b) => b[1] - a[1]).map(([statement, count]) => ({ statement, count }));
  };
  return { total: all.reduce((n, c) => n + c.total, 0), top: merge((c) => c.top), queued: merge((c) => c.queued) };
}

async function measure(
  ctx: Ctx,
  gateways: ChildHandle<GatewayReady>[],
  kind: PhaseRow["kind"],
  submit: () => Promise<Submitted>,
  extra: Partial<PhaseRow> = {},
): Promise<PhaseRow> {
  await Promise.all(gateways.map((g) => g.call("sqlReset")));
  const before = cpuSnapshot(ctx, gateways);
  const sub = await submit();
  const done = await ctx.table.waitFinished(sub.ids, waitMs);
  const after = cpuSnapshot(ctx, gateways);
  const sql = await sqlCounts(gateways);
  const delays = await Promise.all(gateways.map((g) => g.call<{ p50: number; p99: number; max: number }>("loopDelay")));
  if (done < sub.ids.length) log(`only ${done} of ${sub.ids.length} tasks finished within ${waitMs / 1000} s`);
  const rows = await ctx.table.times(sub.ids);
  const finished = rows.filter((r) => r.finishedAt !== null);
  const succeeded = rows.filter((r) => r.status === "SUCCEEDED" && r.attempts === 1).length;
  const lastFinished = Math.max(...finished.map((r) => r.finishedAt!));
  const spanMs = lastFinished - sub.firstSentAt;
  const n = Math.max(1, sub.ids.length);
  const ours =
    after.gateway -
    before.gateway +
    (after.postgres ?? 0) -
    (before.postgres ?? 0) +
    after.upstream -
    before.upstream +
    after.driver -
    before.driver +
    after.dbChild -
    before.dbChild;
  const machineTotal = after.machine.total - before.machine.total;
  const otherLoad = machineTotal > 0 ? Math.max(0, after.machine.busy - before.machine.busy - ours) / machineTotal : 0;
  const notOk = rows.filter((r) => r.status !== "SUCCEEDED" || r.attempts !== 1);
  if (notOk.length)
    log(`${notOk.length} tasks did not succeed at the first attempt, e.g. ${JSON.stringify(notOk.slice(0, 3))}`);
  return {
    kind,
    processes: gateways.length,
    workers: gateways[0]!.ready.concurrency,
    notify: gateways[0]!.ready.jobNotify,
    clients: C,
    submitted: sub.ids.length,
    submitErrors: sub.errors,
    firstError: sub.firstError,
    succeeded,
    notSucceeded: rows.length - succeeded + (sub.ids.length - rows.length),
    rtt: summarize(sub.rtt, sub.rtt.length),
    toRunning: spans(rows, (r) => (r.startedAt === null ? null : r.startedAt - r.createdAt)),
    running: spans(rows, (r) => (r.startedAt === null || r.finishedAt === null ? null : r.finishedAt - r.startedAt)),
    maxBacklog: maxBacklog(rows),
    submitRate: (sub.rtt.length / Math.max(1, sub.lastAnsweredAt - sub.firstSentAt)) * 1000,
    throughput: kind === "burst" ? (finished.length / spanMs) * 1000 : undefined,
    spanMs,
    cpu: {
      gateway: (after.gateway - before.gateway) / n,
      postgres: after.postgres === undefined ? undefined : (after.postgres - (before.postgres ?? 0)) / n,
      upstream: (after.upstream - before.upstream) / n,
      driver: (after.driver - before.driver) / n,
    },
    otherLoad,
    sqlPerTask: sql.total / n,
    sqlTop: sql.top,
    sqlQueued: sql.queued,
    loopDelay: { p50: Math.max(...delays.map((d) => d.p50)), p99: Math.max(...delays.map((d) => d.p99)) },
    ...(kind === "paced" && { paceMs }),
    ...extra,
  };
}

let cpuProfile: TaskCpuProfile | undefined;
/** The steady rate, set by the first phase that measures one (later phases reuse it, for side-by-side numbers). */
let steadyPerS: number | undefined;
let dbCostRows: DbCostRow[] | undefined;
const idleNotes: string[] = [];

/** CPU the gateway processes and PostgreSQL use per second while no task is submitted, and the statements sent. */
async function idleCpu(ctx: Ctx, gateways: ChildHandle<GatewayReady>[], ms: number) {
  await Promise.all(gateways.map((g) => g.call("sqlReset")));
  const a = cpuSnapshot(ctx, gateways);
  await new Promise((r) => setTimeout(r, ms));
  const b = cpuSnapshot(ctx, gateways);
  const sql = await sqlCounts(gateways);
  const perS = (x: number, y: number) => ((y - x) / ms) * 1000;
  return {
    gateway: perS(a.gateway, b.gateway),
    postgres: perS(a.postgres ?? 0, b.postgres ?? 0),
    sqlPerS: (sql.total / ms) * 1000,
    top: sql.top.slice(0, 3).map((s) => `${((s.count / ms) * 1000).toFixed(1)}/s \`${s.statement.slice(0, 40)}…\``),
  };
}

async function runPhase(ctx: Ctx, phase: Phase): Promise<PhaseRow[]> {
  const processes = phase === "two" ? 2 : 1;
  const notify = phase !== "poll";
  log(
    `phase ${phase}: starting ${processes} gateway process(es), ${W} workers each, ${notify ? "LISTEN/NOTIFY" : "polling only"}`,
  );
  const gateways = await Promise.all(
    Array.from({ length: processes }, () =>
      forkChild<GatewayReady>("../tasks/gateway-process.ts", {
        BENCH_DATABASE_URL: ctx.db.ready.databaseUrl,
        BENCH_TASK_CONCURRENCY: String(W),
        BENCH_JOB_NOTIFY: notify ? "1" : "0",
      }),
    ),
  );
  const stop = () => Promise.all(gateways.map((g) => g.stop())).then(() => undefined);
  cleanups.push(stop);
  const { tokens, tool } = ctx.db.ready;
  const agents = await openAgents(
    Array.from({ length: C }, (_, i) => gateways[i % processes]!.ready.url),
    tokens,
    tool,
  );
  const out: PhaseRow[] = [];
  try {
    if (warmup > 0) {
      const w = await submitBurst(agents, tool, warmup, `warm-${phase}`);
      if (w.errors) throw new Error(`warm-up: ${w.errors} submissions failed: ${w.firstError ?? ""}`);
      await ctx.table.waitFinished(w.ids, waitMs);
    }
    const idle = await idleCpu(ctx, gateways, 5000);
    idleNotes.push(
      `${phase}: with no calls (5 s after the warm-up), the gateway process${processes > 1 ? "es" : ""} used ${idle.gateway.toFixed(0)} ms CPU per second and PostgreSQL ${idle.postgres.toFixed(0)} ms; ` +
        `${idle.sqlPerS.toFixed(1)} statements/s, most: ${idle.top.join(", ")}`,
    );
    log(idleNotes.at(-1)!);
    log(`phase ${phase}: burst of ${N} tasks from ${C} clients`);
    const burst = await measure(ctx, gateways, "burst", () => submitBurst(agents, tool, N, `burst-${phase}`));
    out.push(burst);
    logRow(burst);
    const settle = () => new Promise((r) => setTimeout(r, 1500));
    if (M > 0 && steadyShare > 0 && processes === 1 && burst.throughput) {
      const perS = (steadyPerS ??= burst.throughput * steadyShare);
      await settle();
      log(`phase ${phase}: ${M} tasks at ${perS.toFixed(1)}/s (open loop, ${C} clients)`);
      const steady = await measure(
        ctx,
        gateways,
        "steady",
        () => submitSteady(agents, tool, M, 1000 / perS, `steady-${phase}`),
        {
          rate: { perS, share: perS / burst.throughput },
        },
      );
      out.push(steady);
      logRow(steady);
    }
    if (M > 0 && processes === 1) {
      // Let every worker go idle (and, polling only, settle into its poll timer) before the paced calls.
      await settle();
      log(`phase ${phase}: ${M} paced tasks, one client, ${paceMs} ms pause after each answer`);
      const paced = await measure(ctx, gateways, "paced", () =>
        submitPaced(agents[0]!, tool, M, paceMs, `paced-${phase}`),
      );
      out.push(paced);
      logRow(paced);
    }
    if (profileN > 0 && phase === "notify") {
      // A separate pass, so the profiler's own overhead stays out of the numbers above.
      log(`phase ${phase}: CPU-profiling the gateway process over a burst of ${profileN} tasks`);
      await gateways[0]!.call("cpuProfileStart");
      const sub = await submitBurst(agents, tool, profileN, "profile");
      await ctx.table.waitFinished(sub.ids, waitMs);
      cpuProfile = {
        tasks: sub.ids.length,
        clients: C,
        summary: await gateways[0]!.call<TaskProfileSummary>("cpuProfileStop"),
      };
    }
    if (dbCostN > 0 && phase === "notify") {
      log(`phase ${phase}: Prisma vs node-postgres, ${dbCostN} times per statement in the gateway process`);
      dbCostRows = await gateways[0]!.call<DbCostRow[]>("dbCost", { n: dbCostN });
      for (const r of dbCostRows)
        log(`  ${r.op} via ${r.via}: CPU ${r.cpuMs.toFixed(3)} ms, wall ${r.wallMs.toFixed(3)} ms`);
    }
    const left = await ctx.table.queuedJobs();
    if (left > 0) log(`${left} graphile-worker jobs are still queued after the phase (expected 0)`);
  } finally {
    await closeAgents(agents);
    await stop();
    cleanups.splice(cleanups.indexOf(stop), 1);
  }
  return out;
}

function logRow(r: PhaseRow) {
  log(
    `${phaseLabel(r)}: ${r.succeeded}/${r.submitted} ok, submit errors ${r.submitErrors}${r.firstError ? ` (${r.firstError})` : ""}; ` +
      `RTT p50 ${r.rtt.p50.toFixed(1)} p99 ${r.rtt.p99.toFixed(1)} ms; submit→RUNNING p50 ${r.toRunning.p50.toFixed(1)} p90 ${r.toRunning.p90.toFixed(1)} p99 ${r.toRunning.p99.toFixed(1)} ms; ` +
      `backlog ≤ ${r.maxBacklog}; ${r.throughput === undefined ? "" : `${r.throughput.toFixed(0)} tasks/s; `}` +
      `CPU/task gw ${r.cpu.gateway.toFixed(2)} pg ${r.cpu.postgres?.toFixed(2) ?? "–"} ms; SQL/task ${r.sqlPerTask.toFixed(1)}; loop delay p50 ${r.loopDelay.p50.toFixed(1)} p99 ${r.loopDelay.p99.toFixed(1)} ms; other load ${(r.otherLoad * 100).toFixed(0)} %`,
  );
  if (r.sqlQueued.length)
    log(
      `  sent on a busy connection (queued by pg): ${r.sqlQueued
        .slice(0, 5)
        .map((s) => `${s.count}× ${s.statement}`)
        .join(" | ")}`,
    );
}

async function main() {
  const quietWaitMs = int("BENCH_QUIET_WAIT_S", 60, 0) * 1000;
  const quiet = await waitForQuiet(quietWaitMs, 0.15);
  const quietNote = quiet.quiet
    ? `The machine was quiet at the start (${(quiet.busy * 100).toFixed(0)} % busy).`
    : `The machine was still ${(quiet.busy * 100).toFixed(0)} % busy by other work after waiting ${(quiet.waitedMs / 1000).toFixed(0)} s.`;
  log(quietNote);

  log("starting the echo upstream (HTTP, stateful-json)");
  const upstream = await forkChild<{ url: string }>("upstream-process.ts", { BENCH_UPSTREAM: "stateful-json" });
  cleanups.push(() => upstream.stop());

  log("starting PostgreSQL (embedded, temp dir), migrations, fixtures");
  const db = await forkChild<DbReady>("../tasks/db-process.ts", {
    BENCH_UPSTREAM_URL: upstream.ready.url,
    BENCH_SESSIONS: String(C),
  });
  cleanups.push(() => db.stop());
  const table = await TaskTable.open(db.ready.databaseUrl);
  cleanups.push(() => table.close());
  const ctx: Ctx = { db, table, upstreamPid: upstream.pid };

  const rows: PhaseRow[] = [];
  for (const phase of phases) rows.push(...(await runPhase(ctx, phase)));

  const settings = [
    `upstream: bench/gateway's echo tool over HTTP (node:http + SDK StreamableHTTPServerTransport, stateful, JSON responses), in its own process; the tool marked async by an admin (registry.updateTool(…, { async: true })), so every call is answered with a task id at once and runs as a graphile-worker job`,
    `gateway processes: createGateway + startUpstreams + \`await gateway.startTasks()\` (TaskOptions.concurrency = ${W} workers per process, pollInterval 1000 ms) + gateway.mcp.handle on node:http; PostgreSQL embedded, in its own process; each phase starts fresh gateway processes on the same database`,
    `clients: SDK Client + StreamableHTTPClientTransport, ${C} agent session tokens and MCP sessions; burst: ${N} calls, ${C} in flight; steady: ${M} calls at ${steadyShare * 100} % of the burst's measured tasks/s, sent on a fixed schedule over the ${C} clients; paced: ${M} calls from one client, ${paceMs} ms pause after each answer (every worker idle when a task is submitted); ${warmup} untimed tasks before each phase; every call has distinct arguments (the dedupe window would answer a repeat with the first task)`,
    `submit→RUNNING: tasks.startedAt − tasks.createdAt from the tasks table (timestamp(3): 1 ms resolution; createdAt set by the process that took the call, startedAt by the one that claimed it, one machine clock); tasks/s: finished tasks / (last finishedAt − first submit at the driver); RTT: tools/call round trip at the client`,
    `"polling only": the same engine and worker pool, but graphile-worker's \`LISTEN "jobs:insert"\` is dropped in that process (bench/tasks/pg-tap.ts), so its idle workers find jobs only by their 1000 ms poll`,
    `CPU ms/task: user + system CPU of each process tree over the phase (from /proc, 10 ms ticks) / tasks; SQL statements/task: statements the gateway process(es) sent through node-postgres (Prisma, graphile-worker, change bus, audit writer) / tasks; other load: CPU used meanwhile by processes outside the benchmark, as a share of the machine`,
  ];
  const markdown = renderMarkdown({
    rows,
    settings,
    durationS: (performance.now() - started) / 1000,
    quiet: quietNote,
    cpuProfile,
    dbCost: dbCostRows,
    idleNotes,
    targetMs: TARGET_MS,
  });
  console.log(`\n${markdown}\n`);
  if (env.BENCH_WRITE_DOCS === "1") {
    const file = path.join(REPO_ROOT, "docs", "benchmarks.md");
    writeDocs(file, markdown);
    log(`updated ${path.relative(REPO_ROOT, file)}`);
  }
}

try {
  await main();
} finally {
  await cleanup();
  clearTimeout(deadline);
}
