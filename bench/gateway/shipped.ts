// The shipped path, side by side: `portcullis start` (what users run: the built app, its own embedded
// PostgreSQL, every check and the audit on) against supergateway, both in front of the same echo upstream
// over stdio, driven by raw HTTP keep-alive clients (raw-driver.ts: one MCP session per worker); and the same
// echo server reached directly over Streamable HTTP, for the p50 each proxy adds over a direct call. The same
// Portcullis process is driven twice: by 2025-06-18 clients (a session each, as above) and by 2026-07-28 clients
// (stateless: every call carries its version in `_meta` and the routing headers), side by side. Two bare proxies
// (floor-proxy.ts) give c=1 its yardsticks: the least a proxy does, and that plus the call-time tools/list.
//
//   npm run build   # once: `portcullis start --no-build` needs .next
//   mkdir -p /tmp/bench-proxy && cd /tmp/bench-proxy && npm init -y >/dev/null && npm i --ignore-scripts supergateway
//   npx tsx bench/gateway/shipped.ts
//   .ci/node-lts/node_modules/node22-linux-x64/bin/node --import tsx bench/gateway/shipped.ts   # a supported line
//
// Every process of a run (Portcullis, the upstream, supergateway, the bare proxies) runs on the Node that runs the
// bench (process.execPath). Portcullis supports Node 22 and 24 (the image ships 22); this machine's `node` is 20.
//
// Environment (optional): BENCH_PROXY_DIR=/tmp/bench-proxy, BENCH_C1_CALLS=1500, BENCH_C32_CALLS=6000,
// BENCH_ROUNDS=3 (the targets take turns each round), BENCH_TEXT_BYTES=64, BENCH_UPSTREAM_SIBLINGS (below),
// BENCH_CPU_PROF_DIR (when set, the Portcullis process runs with --cpu-prof and writes its profile there on exit),
// BENCH_NODE_ARGS (extra Node flags for the Portcullis process, space-separated, e.g. a GC setting to try),
// BENCH_ONLY (targets to drive, comma-separated, e.g. `portcullis` to profile one kind of call alone; no ratios then).
import { spawn, type ChildProcess } from "node:child_process";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { freePort } from "../../server/db/embedded";
import { apiRequest } from "../../scripts/test-support/api-request";
import { lastLine, runCli } from "../../scripts/test-support/run-cli";
import { spawnApp, type AppProcess } from "../../scripts/test-support/start-app";
import { makeTempDir, removeTempDirs } from "../../scripts/test-support/temp-dir";
import { bundledFixture } from "../../server/test/bundle-fixture";
import { forkChild } from "./child";
import { addSwitches, contextSwitchesByThread, cpuMs, ownCpuMs, processTree, switchesSince, type Switches } from "./proc-stats";
import { openRawSession, openStatelessSession, type RawSession } from "./raw-driver";
import { summarize } from "./stats";

const env = process.env;
const proxyDir = env.BENCH_PROXY_DIR ?? "/tmp/bench-proxy";
const c1Calls = Number(env.BENCH_C1_CALLS ?? 1500);
const c32Calls = Number(env.BENCH_C32_CALLS ?? 6000);
const rounds = Number(env.BENCH_ROUNDS ?? 3);
const text = "x".repeat(Number(env.BENCH_TEXT_BYTES ?? 64));
const ADMIN = { email: "bench@example.test", password: "bench-password-1" };
// The same upstream command line for all: this Node and the echo server over stdio, bundled to one plain
// JavaScript file first. Run through tsx it kept an esbuild service process beside it whose wake-ups counted
// against whichever proxy had launched it with a cold tsx cache (Portcullis's, which gives its upstreams their own
// environment).
// BENCH_UPSTREAM_SIBLINGS=<server> (github, firecrawl, …): the upstream also lists that server's real tool definitions
// (captured in bench/codemode/search-quality/captured-tools.json) beside echo, so the call-time listing is a real
// server's size. Every stdio target gets the same upstream.
const siblingsOf = env.BENCH_UPSTREAM_SIBLINGS;
const siblingsFile = siblingsOf ? await writeSiblings(siblingsOf) : undefined;
const upstream = { command: process.execPath, args: [await bundledFixture(path.join(import.meta.dirname, "echo-stdio.ts")), ...(siblingsFile ? [siblingsFile] : [])] };

async function writeSiblings(server: string): Promise<string> {
  type Captured = { server: string; source?: string; name: string };
  const captured = JSON.parse(readFileSync(path.join(import.meta.dirname, "../codemode/search-quality/captured-tools.json"), "utf8")) as Captured[];
  // The definition as the server lists it: without the capture's own fields.
  const tools = captured.filter((t) => t.server === server).map(({ server: _server, source: _source, ...definition }) => definition);
  if (!tools.length) throw new Error(`BENCH_UPSTREAM_SIBLINGS: no captured tools of ${server}`);
  const file = path.join(await makeTempDir("bench-siblings"), `${server}.json`);
  writeFileSync(file, JSON.stringify(tools));
  return file;
}

type Target = { key: "portcullis" | "portcullis-2026" | "supergateway" | "direct" | "floor" | "floor-listing"; url: string; token?: string; tool: string; pid: number; sessions: RawSession[]; stateless?: boolean };
const cleanups: (() => Promise<void>)[] = [];
const log = (msg: string) => console.log(`[bench ${new Date().toISOString().slice(11, 19)}] ${msg}`);

async function startPortcullis(): Promise<Target> {
  const dataDir = await makeTempDir("bench-shipped");
  const profDir = env.BENCH_CPU_PROF_DIR;
  const app: AppProcess = await spawnApp({
    env: {
      DATA_DIR: dataDir,
      ADMIN_EMAIL: ADMIN.email,
      ADMIN_PASSWORD: ADMIN.password,
      PORTCULLIS_NO_DEMO: "1",
      LOG_LEVEL: "warn",
      // The rate-limit step runs on every call, with limits the benchmark never reaches.
      RATE_LIMIT_SESSION_PER_MINUTE: "1000000000",
      RATE_LIMIT_TOOL_PER_MINUTE: "1000000000",
    },
    nodeArgs: [...(env.BENCH_NODE_ARGS?.split(" ").filter(Boolean) ?? []), ...(profDir ? ["--cpu-prof", `--cpu-prof-dir=${profDir}`] : [])],
  });
  cleanups.push(async () => void (await app.stop("SIGINT", 60_000)));
  // LOG_LEVEL=warn hides the ready line start-app waits for: wait for the health check instead.
  for (;;) {
    if (app.hasExited()) throw new Error(`portcullis start exited:\n${app.output()}`);
    const ok = await fetch(`${app.baseUrl}/api/health`).then((r) => r.ok, () => false);
    if (ok) break;
    await new Promise((r) => setTimeout(r, 200));
  }
  const minted = await runCli(["token", "create", "--email", ADMIN.email, "--name", "bench"], { env: { DATA_DIR: dataDir } });
  const admin = lastLine(minted.stdout);
  const server = await apiRequest(app.baseUrl, "/api/v1/servers", {
    token: admin,
    body: { slug: "bench", name: "Benchmark echo", transport: "stdio", ...upstream, isolation: { profile: "none" } },
    timeoutMs: 60_000,
  });
  if (server.status !== 201) throw new Error(`registering the echo upstream: ${server.status} ${server.text}`);
  const session = await apiRequest<{ token: string }>(app.baseUrl, "/api/v1/sessions", { token: admin, body: { agentId: "bench", tools: ["bench__*"] } });
  if (session.status !== 201) throw new Error(`creating the agent session: ${session.status} ${session.text}`);
  return { key: "portcullis", url: `${app.baseUrl}/mcp`, token: session.body.token, tool: "bench__echo", pid: app.pid, sessions: [] };
}

async function startSupergateway(): Promise<Target> {
  const pkgFile = path.join(proxyDir, "node_modules", "supergateway", "package.json");
  if (!existsSync(pkgFile)) throw new Error(`no supergateway under ${proxyDir}: see the comment at the top of this file`);
  const pkg = JSON.parse(readFileSync(pkgFile, "utf8")) as { version: string; bin: Record<string, string> };
  const port = await freePort();
  const stdio = [upstream.command, ...upstream.args].map((a) => `'${a}'`).join(" ");
  const proc: ChildProcess = spawn(
    process.execPath,
    [path.join(path.dirname(pkgFile), pkg.bin.supergateway ?? "dist/index.js"), "--stdio", stdio, "--outputTransport", "streamableHttp", "--stateful", "--port", String(port), "--logLevel", "none"],
    { stdio: ["pipe", "ignore", "inherit"] },
  );
  const exited = new Promise<void>((resolve) => proc.once("exit", () => resolve()));
  cleanups.push(async () => {
    if (proc.exitCode === null && proc.signalCode === null) proc.kill("SIGTERM");
    await exited;
  });
  const url = `http://127.0.0.1:${port}/mcp`;
  for (;;) {
    if (proc.exitCode !== null) throw new Error(`supergateway exited with ${proc.exitCode}`);
    if (await fetch(url).then(() => true, () => false)) break;
    await new Promise((r) => setTimeout(r, 100));
  }
  log(`supergateway ${pkg.version} (stateful stdio → Streamable HTTP) on ${url}`);
  return { key: "supergateway", url, tool: "echo", pid: proc.pid!, sessions: [] };
}

/** The same echo server, straight over Streamable HTTP (stateful, JSON answers) in a process of its own: what a call costs without a proxy. */
async function startDirect(): Promise<Target> {
  const child = await forkChild<{ url: string }>("upstream-process.ts", { BENCH_UPSTREAM: "stateful-json" });
  cleanups.push(() => child.stop());
  log(`direct echo (Streamable HTTP, no proxy) on ${child.ready.url}`);
  return { key: "direct", url: child.ready.url, tool: "echo", pid: child.pid, sessions: [] };
}

/**
 * The least a stdio proxy can do (floor-proxy.ts): "floor" forwards the call alone, "floor-listing" first reads the
 * upstream's tools/list as issue 23's call-time check requires, and does nothing else. Yardsticks for c=1.
 */
async function startFloor(listing: boolean): Promise<Target> {
  const child = await forkChild<{ url: string }>("floor-proxy.ts", {
    BENCH_FLOOR_UPSTREAM: JSON.stringify([upstream.command, ...upstream.args]),
    BENCH_FLOOR_LISTING: listing ? "1" : "0",
  });
  cleanups.push(() => child.stop());
  const key = listing ? "floor-listing" : "floor";
  log(`${key} (a bare stdio proxy${listing ? " that reads tools/list before each call" : ""}) on ${child.ready.url}`);
  return { key, url: child.ready.url, tool: "echo", pid: child.pid, sessions: [] };
}

type Phase = { latencies: number[]; ms: number; serverCpuMs: number; mainCpuMs: number; driverCpuMs: number; calls: number; byThread: Map<string, Switches> };

/** `calls` calls over `t.sessions.slice(0, c)`, each worker waiting for its answer before the next call. */
async function phase(t: Target, c: number, calls: number): Promise<Phase> {
  const tree = processTree(t.pid);
  const latencies: number[] = [];
  let next = 0;
  const cpu0 = cpuMs(tree);
  const main0 = cpuMs([t.pid]);
  const drv0 = ownCpuMs();
  const by0 = contextSwitchesByThread(tree);
  const t0 = performance.now();
  await Promise.all(
    t.sessions.slice(0, c).map(async (s) => {
      while (next++ < calls) {
        const a = performance.now();
        await s.call();
        latencies.push(performance.now() - a);
      }
    }),
  );
  const ms = performance.now() - t0;
  const byThread = switchesSince(by0, contextSwitchesByThread(tree));
  return { latencies, ms, serverCpuMs: cpuMs(tree) - cpu0, mainCpuMs: cpuMs([t.pid]) - main0, driverCpuMs: ownCpuMs() - drv0, calls, byThread };
}

/** A target's c=1 switches by process/thread, summed over its phases. */
const c1Switches = (c1: Phase[]) => {
  const sum = new Map<string, Switches>();
  for (const p of c1) for (const [k, v] of p.byThread) addSwitches(sum, k, v);
  return sum;
};
/** Waits and preemptions of the names `which` picks (all by default). */
const total = (by: Map<string, Switches>, which: (name: string) => boolean = () => true): Switches => {
  const sum = { voluntary: 0, involuntary: 0 };
  for (const [k, v] of by) {
    if (!which(k)) continue;
    sum.voluntary += v.voluntary;
    sum.involuntary += v.involuntary;
  }
  return sum;
};

const median = (v: number[]) => [...v].sort((a, b) => a - b)[Math.floor(v.length / 2)]!;

async function main() {
  const load0 = os.loadavg();
  log(`machine: ${os.cpus().length}× ${os.cpus()[0]?.model}, Node ${process.version}, load average ${load0.map((l) => l.toFixed(2)).join(" ")}`);
  const only = env.BENCH_ONLY ? new Set(env.BENCH_ONLY.split(",")) : undefined;
  const wanted = (key: Target["key"]) => !only || only.has(key);
  // Only the targets driven are started: an idle one would still hold processes on the machine.
  const targets: Target[] = [];
  if (wanted("portcullis") || wanted("portcullis-2026")) {
    const portcullis = await startPortcullis();
    if (wanted("portcullis")) targets.push(portcullis);
    if (wanted("portcullis-2026")) targets.push({ ...portcullis, key: "portcullis-2026", sessions: [], stateless: true });
  }
  if (wanted("supergateway")) targets.push(await startSupergateway());
  if (wanted("direct")) targets.push(await startDirect());
  if (wanted("floor")) targets.push(await startFloor(false));
  if (wanted("floor-listing")) targets.push(await startFloor(true));
  for (const t of targets) {
    for (let i = 0; i < 32; i++) t.sessions.push(t.stateless ? openStatelessSession(t.url, t.token, t.tool, text) : await openRawSession(t.url, t.token, t.tool, text));
    await phase(t, 32, 500); // warm-up: JIT, pools, the upstream's sessions
  }
  const results = new Map<string, { c1: Phase[]; c32: Phase[] }>(targets.map((t) => [t.key, { c1: [], c32: [] }]));
  for (let r = 0; r < rounds; r++) {
    // The targets take turns, first one then the other, so a busy spell on the shared machine hits both.
    for (const t of r % 2 ? [...targets].reverse() : targets) {
      results.get(t.key)!.c1.push(await phase(t, 1, Math.ceil(c1Calls / rounds)));
      results.get(t.key)!.c32.push(await phase(t, 32, Math.ceil(c32Calls / rounds)));
    }
    log(`round ${r + 1}/${rounds} done, load average ${os.loadavg()[0]!.toFixed(2)}`);
  }
  const rows = targets.map((t) => {
    const { c1, c32 } = results.get(t.key)!;
    const lat = c1.flatMap((p) => p.latencies);
    const s = summarize(Float64Array.from(lat), lat.length);
    const per = (ps: Phase[], f: (p: Phase) => number) => ps.reduce((a, p) => a + f(p), 0) / ps.reduce((a, p) => a + p.calls, 0);
    const c1Done = c1.reduce((a, p) => a + p.calls, 0);
    const sw = c1Switches(c1);
    return {
      target: t.key,
      c1p50: s.p50,
      c1p99: s.p99,
      c32PerS: median(c32.map((p) => (p.calls / p.ms) * 1000)),
      serverCpuPerCallMs: per(c32, (p) => p.serverCpuMs),
      mainCpuPerCallMs: per(c32, (p) => p.mainCpuMs),
      driverCpuPerCallMs: per(c32, (p) => p.driverCpuMs),
      c1CpuPerCallMs: per(c1, (p) => p.serverCpuMs),
      c1MainCpuPerCallMs: per(c1, (p) => p.mainCpuMs),
      c1WaitsPerCall: total(sw).voluntary / c1Done,
      c1PreemptedPerCall: total(sw).involuntary / c1Done,
      c1MainPreemptedPerCall: total(sw, (name) => name.startsWith("root/")).involuntary / c1Done,
    };
  });
  console.log("\n| target | c=1 p50 ms | c=1 p99 ms | c=32 calls/s | server tree CPU ms/call (c=32) | of which the main process | driver CPU ms/call |");
  console.log("|---|---:|---:|---:|---:|---:|---:|");
  for (const r of rows)
    console.log(`| ${r.target} | ${r.c1p50.toFixed(2)} | ${r.c1p99.toFixed(2)} | ${r.c32PerS.toFixed(0)} | ${r.serverCpuPerCallMs.toFixed(3)} | ${r.mainCpuPerCallMs.toFixed(3)} | ${r.driverCpuPerCallMs.toFixed(3)} |`);
  // Where a c=1 call's time goes besides CPU: how often the server's processes wait for one another (each wait
  // ends in a wake-up, a hop from one process to another) and how often the scheduler takes a core away.
  console.log("\n| target | c=1 server tree CPU ms/call | of which the main process | context switches/call: waits (voluntary) | preemptions (involuntary) | of which the main process's preemptions |");
  console.log("|---|---:|---:|---:|---:|---:|");
  for (const r of rows)
    console.log(`| ${r.target} | ${r.c1CpuPerCallMs.toFixed(3)} | ${r.c1MainCpuPerCallMs.toFixed(3)} | ${r.c1WaitsPerCall.toFixed(1)} | ${r.c1PreemptedPerCall.toFixed(2)} | ${r.c1MainPreemptedPerCall.toFixed(2)} |`);
  for (const key of ["portcullis", "supergateway", "floor-listing"] as const) {
    const c1 = results.get(key)?.c1;
    if (!c1) continue;
    const calls = c1.reduce((a, p) => a + p.calls, 0);
    const busy = [...c1Switches(c1)].filter(([, v]) => v.voluntary + v.involuntary >= calls / 10).sort((a, b) => b[1].voluntary - a[1].voluntary);
    console.log(`c=1 ${key}, waits / preemptions per call by process/thread: ${busy.map(([k, v]) => `${k} ${(v.voluntary / calls).toFixed(2)} / ${(v.involuntary / calls).toFixed(2)}`).join(", ")}`);
  }
  if (!only) {
    const row = (key: Target["key"]) => rows.find((r) => r.target === key)!;
    const [p, p26, g, d, f, fl] = [row("portcullis"), row("portcullis-2026"), row("supergateway"), row("direct"), row("floor"), row("floor-listing")];
    console.log(`\nratios Portcullis / supergateway: c=1 p50 ${(p.c1p50 / g.c1p50).toFixed(2)}× (target ≤ 1.0), c=32 throughput ${(p.c32PerS / g.c32PerS).toFixed(2)}× (target ≥ 1.2)`);
    console.log(`ratios Portcullis 2026-07-28 stateless / 2025-06-18 session calls: c=1 p50 ${(p26.c1p50 / p.c1p50).toFixed(2)}×, c=32 throughput ${(p26.c32PerS / p.c32PerS).toFixed(2)}×`);
    console.log(`c=1 p50 added over a direct call (${d.c1p50.toFixed(2)} ms): Portcullis ${(p.c1p50 - d.c1p50).toFixed(2)} ms, supergateway ${(g.c1p50 - d.c1p50).toFixed(2)} ms`);
    console.log(
      `c=1 p50 of the bare proxies against supergateway's: forwarding alone ${(f.c1p50 / g.c1p50).toFixed(2)}×, reading tools/list first (issue 23's call-time check, nothing else) ${(fl.c1p50 / g.c1p50).toFixed(2)}×`,
    );
  }
  console.log(`calls: c=1 ${c1Calls}, c=32 ${c32Calls}, ${rounds} rounds; load average before ${load0.map((l) => l.toFixed(2)).join(" ")}, after ${os.loadavg().map((l) => l.toFixed(2)).join(" ")}; ${new Date().toISOString()}`);
  console.log(JSON.stringify({ rows, load0, load1: os.loadavg() }));
  for (const t of targets) await Promise.all(t.sessions.map((s) => s.close()));
}

try {
  await main();
} finally {
  for (const fn of cleanups.reverse()) await fn().catch((err: unknown) => console.error("cleanup:", err));
  await removeTempDirs();
}
