// Gateway benchmark: tools/call latency and throughput, direct to an upstream vs through Portcullis vs
// through a plain proxy, side by side in one run, loopback only.
// This one runs the gateway core on a node:http adapter (no `portcullis start`, SDK client driver) and profiles
// its steps; the shipped path against supergateway, for issue 19's targets, is bench/gateway/shipped.ts.
//
//   npx tsx bench/gateway/run.ts
//
// Processes: this one drives the load (SDK Client + StreamableHTTPClientTransport, one client and MCP
// session per worker). The echo upstream, Portcullis (embedded PostgreSQL + gateway core, no Next.js)
// and the plain proxy each run in their own process, so no server shares an event loop with the driver.
// The plain proxy is supergateway, which only bridges stdio → Streamable HTTP: it runs the same echo
// server over stdio, one child per MCP session (its stateful mode). Install it outside the repo:
//   mkdir -p /tmp/bench-proxy && cd /tmp/bench-proxy && npm init -y >/dev/null && npm i --ignore-scripts supergateway
// and point BENCH_PROXY_DIR at that folder (without it, only direct and Portcullis are measured).
//
// Environment (all optional):
//   BENCH_CONCURRENCY=1,32        concurrency levels
//   BENCH_CALLS=2000,10000        timed calls per level (one number per level)
//   BENCH_WARMUP=…                untimed calls before each phase (default: max(200, 10% of the calls))
//   BENCH_ROUNDS=5               each level's calls in this many rounds, the paths taking turns
//   BENCH_PHASE_MAX_S=90          a phase stops at this time limit even if its calls are not done
//   BENCH_DEADLINE_S=900          the whole run gives up (and cleans up) after this
//   BENCH_TEXT_BYTES=64           size of the echoed text (the schema allows up to 1000)
//   BENCH_UPSTREAM=stateful-json  upstream mode: stateful|stateless × json|sse
//   BENCH_PROXY_DIR=/tmp/bench-proxy
//   BENCH_DB_POOL=                Portcullis' Prisma pool size (default: createDb's, as the /mcp route uses)
//   BENCH_PROFILE_N=300           calls per step of the in-process profile (0: skip it)
//   BENCH_CPU_PROFILE_CALLS=2000  calls of an extra Portcullis-only pass under V8's sampling profiler (0: skip it)
//   BENCH_WRITE_DOCS=1            update docs/benchmarks.md between its bench markers (0: print only)
//   BENCH_TARGETS=direct,portcullis,proxy
//   BENCH_QUIET_WAIT_S=120        first wait (at most this long) for the machine to be under 15 % busy
import { spawn, type ChildProcess } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { freePort } from "../../server/db/embedded";
import { forkChild, parseUpstreamMode, REPO_ROOT, type ChildHandle } from "./child";
import { closeClients, combine, openClients, runCalls, type Batch, type Endpoint } from "./load";
import type { PortcullisReady } from "./portcullis-process";
import { cpuMs, fsyncP50Ms, machineCpuMs, ownCpuMs, processTree, waitForQuiet } from "./proc-stats";
import type { CpuProfileSummary } from "./cpu-profile";
import type { ProfileRow } from "./profile";
import { renderMarkdown, writeDocs, type CpuPerCall, type CpuProfile, type Row, type TargetKey } from "./report";

const env = process.env;
const list = (v: string | undefined, d: number[]) => (v ? v.split(",").map((s) => Number(s.trim())) : d);
const levels = list(env.BENCH_CONCURRENCY, [1, 32]);
const calls = list(env.BENCH_CALLS, [2000, 10000]);
if (calls.length !== levels.length || [...levels, ...calls].some((n) => !Number.isInteger(n) || n < 1)) {
  throw new Error("BENCH_CONCURRENCY and BENCH_CALLS must be lists of positive integers of the same length");
}
const warmupOf = (n: number) => (env.BENCH_WARMUP ? Number(env.BENCH_WARMUP) : Math.max(200, Math.round(n / 10)));
const phaseMaxMs = Number(env.BENCH_PHASE_MAX_S ?? 90) * 1000;
const deadlineMs = Number(env.BENCH_DEADLINE_S ?? 900) * 1000;
const text = "x".repeat(Number(env.BENCH_TEXT_BYTES ?? 64));
const upstreamMode = env.BENCH_UPSTREAM ?? "stateful-json";
parseUpstreamMode(upstreamMode);
const rounds = Number(env.BENCH_ROUNDS ?? 5);
const cpuProfileCalls = Number(env.BENCH_CPU_PROFILE_CALLS ?? 2000);
const profileN = Number(env.BENCH_PROFILE_N ?? 300);
const targets = (env.BENCH_TARGETS ?? "direct,portcullis,proxy").split(",").map((s) => s.trim()) as TargetKey[];
const maxConcurrency = Math.max(...levels);
const started = performance.now();

type Running = {
  key: TargetKey;
  label: string;
  endpoint: Endpoint;
  clients: Client[];
  cpu: () => Omit<CpuPerCall, "driver">;
};

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

const log = (msg: string) => console.log(`[${((performance.now() - started) / 1000).toFixed(1)} s] ${msg}`);

/** supergateway from BENCH_PROXY_DIR, or why there is none. */
function findProxy(): { entry: string; version: string } | string {
  const dir = env.BENCH_PROXY_DIR;
  const how =
    "install it with `mkdir -p /tmp/bench-proxy && cd /tmp/bench-proxy && npm init -y >/dev/null && npm i --ignore-scripts supergateway` and set BENCH_PROXY_DIR=/tmp/bench-proxy";
  if (!dir) return `BENCH_PROXY_DIR is not set: measuring direct and Portcullis only (${how}).`;
  const pkgFile = path.join(dir, "node_modules", "supergateway", "package.json");
  if (!existsSync(pkgFile))
    return `no supergateway under ${dir}/node_modules: measuring direct and Portcullis only (${how}).`;
  const pkg = JSON.parse(readFileSync(pkgFile, "utf8")) as { version: string; bin: Record<string, string> };
  return { entry: path.join(path.dirname(pkgFile), pkg.bin.supergateway ?? "dist/index.js"), version: pkg.version };
}

async function waitForPort(url: string, proc: ChildProcess, ms: number) {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    if (proc.exitCode !== null) throw new Error(`the proxy exited with ${proc.exitCode}`);
    const ok = await fetch(url, { method: "GET" }).then(
      () => true,
      () => false,
    );
    if (ok) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`the proxy did not listen on ${url} within ${ms} ms`);
}

async function startProxy(entry: string): Promise<{ url: string; proc: ChildProcess }> {
  const port = await freePort();
  const stdioCmd = `'${process.execPath}' --import tsx '${path.join(import.meta.dirname, "echo-stdio.ts")}'`;
  const proc = spawn(
    process.execPath,
    [
      entry,
      "--stdio",
      stdioCmd,
      "--outputTransport",
      "streamableHttp",
      "--stateful",
      "--port",
      String(port),
      "--logLevel",
      "none",
    ],
    { cwd: REPO_ROOT, stdio: ["pipe", "ignore", "inherit"] },
  );
  const exited = new Promise<void>((resolve) => proc.once("exit", () => resolve()));
  cleanups.push(async () => {
    if (proc.exitCode !== null || proc.signalCode !== null) return;
    proc.kill("SIGTERM"); // supergateway stops its stdio children on SIGTERM
    const timer = setTimeout(() => proc.kill("SIGKILL"), 15_000);
    await exited;
    clearTimeout(timer);
  });
  const url = `http://127.0.0.1:${port}/mcp`;
  await waitForPort(url, proc, 30_000);
  return { url, proc };
}

function perCall(deltaMs: number | undefined, n: number) {
  return deltaMs === undefined ? undefined : deltaMs / n;
}

async function main() {
  const proxy = targets.includes("proxy") ? findProxy() : "proxy not requested (BENCH_TARGETS).";
  if (typeof proxy === "string") console.log(`bench: ${proxy}`);

  const quiet = await waitForQuiet(Number(env.BENCH_QUIET_WAIT_S ?? 120) * 1000, 0.15);
  log(
    quiet.quiet
      ? `the machine is quiet (${(quiet.busy * 100).toFixed(0)} % busy)`
      : `the machine is still ${(quiet.busy * 100).toFixed(0)} % busy after ${(quiet.waitedMs / 1000).toFixed(0)} s: numbers will be noisy`,
  );
  const fsyncMs = fsyncP50Ms();
  log(
    `8 KiB write + fdatasync in ${os.tmpdir()}: p50 ${fsyncMs.toFixed(2)} ms (every PostgreSQL commit waits for one)`,
  );
  log(`starting the echo upstream (${upstreamMode})`);
  const upstream: ChildHandle<{ url: string }> = await forkChild("upstream-process.ts", {
    BENCH_UPSTREAM: upstreamMode,
  });
  cleanups.push(() => upstream.stop());
  const upstreamCpu = () => cpuMs(processTree(upstream.pid));

  const running: Running[] = [];
  let portcullis: ChildHandle<PortcullisReady> | undefined;
  if (targets.includes("direct")) {
    running.push({
      key: "direct",
      label: "direct",
      endpoint: { url: upstream.ready.url, tool: "echo", headers: {} },
      clients: [],
      cpu: () => ({ upstream: upstreamCpu() }),
    });
  }
  if (targets.includes("portcullis")) {
    log("starting Portcullis (embedded PostgreSQL, migrations, user + token, upstream registration)");
    const pc: ChildHandle<PortcullisReady> = await forkChild("portcullis-process.ts", {
      BENCH_UPSTREAM_URL: upstream.ready.url,
      ...(env.BENCH_DB_POOL ? { BENCH_DB_POOL: env.BENCH_DB_POOL } : {}),
    });
    cleanups.push(() => pc.stop());
    const pgPid = pc.ready.postmasterPid;
    running.push({
      key: "portcullis",
      label: "Portcullis",
      endpoint: { url: pc.ready.url, tool: pc.ready.tool, headers: { authorization: `Bearer ${pc.ready.token}` } },
      clients: [],
      cpu: () => ({
        gateway: cpuMs([pc.pid]),
        postgres: pgPid ? cpuMs(processTree(pgPid)) : undefined,
        upstream: upstreamCpu(),
      }),
    });
    portcullis = pc;
  }
  let proxyNote = typeof proxy === "string" ? `plain proxy: not measured (${proxy})` : "";
  if (typeof proxy !== "string") {
    log(`starting supergateway ${proxy.version} (stateful stdio → Streamable HTTP)`);
    const { url, proc } = await startProxy(proxy.entry);
    proxyNote =
      `plain proxy: supergateway ${proxy.version} in its stateful stdio → Streamable HTTP mode (it has no HTTP → HTTP mode), ` +
      `in front of the same echo server run over stdio, one child process per MCP session; logging off. ` +
      `So its "upstream" hop is a pipe, not HTTP: it does one HTTP hop per call where Portcullis does two.`;
    running.push({
      key: "proxy",
      label: "supergateway",
      endpoint: { url, tool: "echo", headers: {} },
      clients: [],
      cpu: () => {
        const tree = processTree(proc.pid!);
        return { gateway: cpuMs([proc.pid!]), upstream: cpuMs(tree.filter((p) => p !== proc.pid)) };
      },
    });
  }

  for (const r of running) {
    log(`opening ${maxConcurrency} MCP sessions to ${r.label}`);
    r.clients = await openClients(r.endpoint, maxConcurrency);
    cleanups.push(() => closeClients(r.clients));
  }

  // Each level is split into rounds, and every round runs each path in turn (rotating who goes first),
  // so a burst of other work on a shared machine lands on all paths alike rather than on one.
  const rows: Row[] = [];
  for (const [li, c] of levels.entries()) {
    const n = calls[li]!;
    for (const r of running)
      await runCalls(r.clients, r.endpoint.tool, { concurrency: c, calls: warmupOf(n), maxMs: phaseMaxMs, text });
    const acc = new Map<
      TargetKey,
      { batches: Batch[]; cpu: Record<keyof CpuPerCall, number | undefined>; machineBusy: number; machineTotal: number }
    >();
    for (let round = 0; round < rounds; round++) {
      const size = Math.floor(n / rounds) + (round < n % rounds ? 1 : 0);
      for (let k = 0; k < running.length; k++) {
        const r = running[(k + round) % running.length]!;
        const machineBefore = machineCpuMs();
        const before = { ...r.cpu(), driver: ownCpuMs() };
        const batch = await runCalls(r.clients, r.endpoint.tool, {
          concurrency: c,
          calls: size,
          maxMs: phaseMaxMs / rounds,
          text,
        });
        const after = { ...r.cpu(), driver: ownCpuMs() };
        const machineAfter = machineCpuMs();
        const a = acc.get(r.key) ?? {
          batches: [],
          cpu: { gateway: 0, postgres: 0, upstream: 0, driver: 0 },
          machineBusy: 0,
          machineTotal: 0,
        };
        a.batches.push(batch);
        for (const key of ["gateway", "postgres", "upstream", "driver"] as const) {
          const b = before[key];
          const e = after[key];
          a.cpu[key] =
            b === undefined || e === undefined || a.cpu[key] === undefined ? undefined : a.cpu[key] + (e - b);
        }
        a.machineBusy += machineAfter.busy - machineBefore.busy;
        a.machineTotal += machineAfter.total - machineBefore.total;
        acc.set(r.key, a);
      }
    }
    for (const r of running) {
      const a = acc.get(r.key)!;
      const phase = combine(a.batches);
      const k = phase.completed;
      const ours = Object.values(a.cpu).reduce<number>((sum, v) => sum + (v ?? 0), 0);
      rows.push({
        target: r.key,
        label: r.label,
        concurrency: c,
        phase,
        cpu: {
          gateway: perCall(a.cpu.gateway, k),
          postgres: perCall(a.cpu.postgres, k),
          upstream: perCall(a.cpu.upstream, k)!,
          driver: perCall(a.cpu.driver, k)!,
        },
        otherLoad: a.machineTotal > 0 ? Math.max(0, a.machineBusy - ours) / a.machineTotal : 0,
      });
      log(
        `${r.label.padEnd(12)} c=${String(c).padStart(2)}: ${phase.completed} calls, ${phase.errors} errors, ` +
          `p50 ${phase.latency.p50.toFixed(2)} ms, p99 ${phase.latency.p99.toFixed(2)} ms, ${phase.throughput.toFixed(0)} calls/s`,
      );
    }
  }

  const pc = portcullis;
  let profile: ProfileRow[] | undefined;
  let cpuProfile: CpuProfile | undefined;
  const pcRun = running.find((r) => r.key === "portcullis");
  if (pc && pcRun && cpuProfileCalls > 0) {
    // A separate pass, so the profiler's own overhead stays out of the numbers above.
    log(`CPU-profiling Portcullis over ${cpuProfileCalls} calls at c=${maxConcurrency}`);
    await pc.call("cpuProfileStart");
    const batch = await runCalls(pcRun.clients, pcRun.endpoint.tool, {
      concurrency: maxConcurrency,
      calls: cpuProfileCalls,
      maxMs: phaseMaxMs,
      text,
    });
    cpuProfile = {
      calls: batch.samples.length,
      concurrency: maxConcurrency,
      summary: await pc.call<CpuProfileSummary>("cpuProfileStop"),
    };
  }
  if (pc) {
    const audited = await pc.call<number>("auditRows");
    log(`Portcullis wrote ${audited} tool.called audit rows`);
    if (profileN > 0) {
      for (const r of running) await closeClients(r.clients); // the profile runs with no load
      log(`profiling the Portcullis call path in-process (${profileN} calls per step)`);
      profile = await pc.call<ProfileRow[]>("profile", { n: profileN, stepMaxMs: 8000 });
    }
  }

  const settings = [
    `upstream: the echo tool on node:http + SDK ${sdkVersion()} StreamableHTTPServerTransport, ${upstreamMode} (${describeMode(upstreamMode)})`,
    `calls per phase: in ${rounds} rounds in which the paths take turns; ${levels.map((c, i) => `c=${c}: ${calls[i]} timed after ${warmupOf(calls[i]!)} warm-up`).join("; ")}; echoed text ${text.length} bytes; every result checked`,
    `Portcullis: gateway.mcp.handle over node:http with every check on: agent session token, whitelist, tier and parameter rules, MCP session (per-process caches invalidated over LISTEN/NOTIFY), ajv validation, ` +
      `rate limits per session and per tool (blocks leased from PostgreSQL counters; limits set out of reach: BENCH_RATE_LIMIT), output bound, bulkhead + breaker, ` +
      `one audit row per call committed before the answer (group commit); ` +
      `Prisma pool ${env.BENCH_DB_POOL ?? "default (10, as the /mcp route's createDb)"}; upstream maxConcurrency 16 (the default)`,
    "latency: per call at the client, from callTool() to its result; throughput: completed calls / phase wall time",
    "CPU ms/call: user + system CPU of each process tree over the timed phase (from /proc) divided by the calls; 10 ms clock ticks",
    "other load: CPU used during the phase by processes outside this benchmark, as a share of the whole machine (other work on a shared machine skews the numbers)",
  ];
  const markdown = renderMarkdown({
    fsyncMs,
    settings,
    rows,
    profile,
    cpuProfile,
    proxyNote,
    durationS: (performance.now() - started) / 1000,
  });
  console.log(`\n${markdown}\n`);
  if (env.BENCH_WRITE_DOCS !== "0") {
    const file = path.join(REPO_ROOT, "docs", "benchmarks.md");
    writeDocs(file, markdown);
    log(`updated ${path.relative(REPO_ROOT, file)}`);
  }
}

function describeMode(mode: string): string {
  const m = parseUpstreamMode(mode);
  return `${m.stateful ? "one Server + transport per MCP session" : "a new Server + transport per request"}, ${m.json ? "JSON responses" : "SSE responses"}`;
}

function sdkVersion(): string {
  const file = path.join(REPO_ROOT, "node_modules", "@modelcontextprotocol", "sdk", "package.json");
  return (JSON.parse(readFileSync(file, "utf8")) as { version: string }).version;
}

try {
  await main();
} finally {
  await cleanup();
  clearTimeout(deadline);
}
