// Code mode (/mcp/code) against the aggregate endpoint (/mcp), measured side by side in one run on this machine:
//
//   npm run bench:codemode                     # prints the results block (about 3–4 minutes)
//   BENCH_WRITE_DOCS=1 npm run bench:codemode  # also rewrites the block in docs/benchmarks.md
//
// (1) context at agent start-up, in o200k_base tokens: /mcp's tools/list with realisticTools(n) registered (one
//     stdio process of realistic-server.mjs per server slug) against /mcp/code's tools/list plus one search_tools
//     answer, at n = 50, 500 and 2,000;
// (2) sandbox start to first instruction (ExecResult.startupMs on a warmed pool);
// (3) the bridge's cost per inner tool call: a tool that answers at once, and end to end through the pipeline;
// (4) ten parallel inner calls of a 150 ms tool against the slowest of them;
// (5) the time limit's overshoot and the memory cap;
// (6) a 10-call workflow as one execute_code against ten direct tools/call requests, both over HTTP.
//
// Environment (all optional):
//   BENCH_CODEMODE_TOOLS=50,500,2000   tool counts of (1), ascending (the workflow runs at the one nearest 500)
//   BENCH_STARTUP_RUNS=600             measured runs of (2) per variant, after 50 warm-up runs
//   BENCH_DEADLINE_S=480               the 2,000-tool phase is skipped (and the block says so) if it would start later
//   BENCH_WRITE_DOCS=1                 update docs/benchmarks.md between its bench:codemode markers (else print only)
import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { misbehavingServer } from "../../server/test/gateway-harness";
import { writeDocsBlock } from "../docs-block";
import { machineFacts } from "../gateway/report";
import { measureContext, type ContextSample } from "./context";
import { measureParallel, measurePipelineBridge, measureWorkflow, WORKFLOW_TOOLS } from "./e2e";
import { startBenchGateway, type BenchGateway } from "./gateway";
import { renderReport, type CodeModeReport } from "./report";
import { benchPool, measureBridgeMicro, measureBridgeSleeping, measureLimits, measureVmGap, measureStartup, measureThreadHop } from "./sandbox";
import { realisticUpstreams } from "./upstreams";

const env = process.env;
const COUNTS = (env.BENCH_CODEMODE_TOOLS ?? "50,500,2000").split(",").map(Number);
if (COUNTS.some((n) => !Number.isInteger(n) || n < 1) || COUNTS.some((n, i) => i > 0 && n <= COUNTS[i - 1]!)) throw new Error("BENCH_CODEMODE_TOOLS must be ascending positive integers");
const STARTUP_RUNS = Number(env.BENCH_STARTUP_RUNS ?? 600);
const DEADLINE_S = Number(env.BENCH_DEADLINE_S ?? 480);
const REPO_ROOT = path.resolve(import.meta.dirname, "../..");
const WORKFLOW_AT = COUNTS.reduce((best, n) => (Math.abs(n - 500) < Math.abs(best - 500) ? n : best));

const started = performance.now();
const elapsed = () => (performance.now() - started) / 1000;
const step = (what: string) => console.error(`[${elapsed().toFixed(0).padStart(4)} s] ${what}`);

async function sandboxParts() {
  const pool = benchPool();
  try {
    await pool.ready();
    step("(3) worker-thread round trip, the floor under the bridge");
    const hop = await measureThreadHop(2000, 5);
    step(`(2) start to first instruction: ${String(STARTUP_RUNS)} runs × 2 variants`);
    const startup = await measureStartup(pool, STARTUP_RUNS, 50);
    step("(3) bridge, a tool that answers at once");
    const micro = await measureBridgeMicro(pool, 1000, 9);
    step("(3) bridge, a tool that answers after 5 ms (the worker sleeps between calls)");
    const sleeping = await measureBridgeSleeping(pool, 100, 5, 7);
    step("(3) the VM's work per call after a gap, in one thread");
    const vmGap = await measureVmGap(100, [0, 1, 5], 5);
    step("(5) time limit and memory cap");
    const limits = await measureLimits(pool, [{ wallMs: 200, runs: 25 }, { wallMs: 500, runs: 12 }, { wallMs: 1000, runs: 8 }], 5);
    return { hop, startup, micro, sleeping, vmGap, limits };
  } finally {
    await pool.close();
  }
}

async function gatewayParts(bg: BenchGateway, dir: string) {
  const upstreams = realisticUpstreams(bg, dir, COUNTS[COUNTS.length - 1]!);
  const context: ContextSample[] = [];
  const registration: { tools: number; servers: number; started: number; seconds: number }[] = [];
  const skipped: string[] = [];
  let e2e: (Omit<CodeModeReport["e2e"], "workflowAt"> & { hopInGateway: number[] }) | undefined;
  for (const n of COUNTS) {
    if (n > WORKFLOW_AT && elapsed() > DEADLINE_S - 150) {
      skipped.push(`${String(n)} tools: not run, the run had taken ${elapsed().toFixed(0)} s of its ${String(DEADLINE_S)} s (BENCH_DEADLINE_S)`);
      continue;
    }
    step(`(1) registering realisticTools(${String(n)})`);
    const served = await upstreams.serve(n);
    registration.push({ tools: n, ...served });
    step(`(1) ${String(n)} tools on ${String(served.servers)} servers (${served.seconds.toFixed(0)} s to register): measuring context`);
    context.push(await measureContext(bg, n, served.servers));
    if (n !== WORKFLOW_AT) continue;
    const names = new Set(upstreams.all.slice(0, n).map((t) => t.name));
    const missing = WORKFLOW_TOOLS.filter((t) => !names.has(t));
    if (missing.length) throw new Error(`the workflow's tools are not among realisticTools(${String(n)}): ${missing.join(", ")}`);
    await bg.gateway.registry.register(bg.admin, misbehavingServer(dir, { slug: "ops" }));
    step("(3) worker-thread round trip again, beside the gateway");
    const hopInGateway = await measureThreadHop(2000, 5);
    step("(3) bridge end to end through the pipeline");
    const pipeline = await measurePipelineBridge(bg, "crm__get_contact", { contact_id: "contact_42" }, 100, 7);
    step("(4) ten parallel inner calls");
    const parallel = await measureParallel(bg, 150, 10, 10);
    step("(6) the 10-call workflow, code mode and direct");
    const workflow = await measureWorkflow(bg, 10);
    e2e = { pipeline, parallel, workflow, hopInGateway };
  }
  if (!e2e) throw new Error("the end-to-end parts did not run");
  return { context, registration, skipped, e2e };
}

async function main() {
  const loadAtStart = os.loadavg()[0]!;
  const sandbox = await sandboxParts();
  step("starting the gateway (embedded PostgreSQL, migrations)");
  const bg = await startBenchGateway();
  const dir = await mkdtemp(path.join(os.tmpdir(), "portcullis-bench-codemode-fixtures-"));
  const stop = async () => {
    await bg.close();
    await rm(dir, { recursive: true, force: true });
  };
  // Interrupted: the gateway's pool ends the fixture processes, and PostgreSQL stops.
  process.once("SIGINT", () => void stop().finally(() => process.exit(130)));
  process.once("SIGTERM", () => void stop().finally(() => process.exit(143)));
  let gw: Awaited<ReturnType<typeof gatewayParts>>;
  try {
    gw = await gatewayParts(bg, dir);
  } finally {
    await stop();
  }
  const md = renderReport({
    facts: machineFacts(),
    durationS: elapsed(),
    loadAtStart,
    loadAtEnd: os.loadavg()[0]!,
    ...sandbox,
    context: gw.context,
    registration: gw.registration,
    skipped: gw.skipped,
    hopInGateway: gw.e2e.hopInGateway,
    e2e: { pipeline: gw.e2e.pipeline, parallel: gw.e2e.parallel, workflow: gw.e2e.workflow, workflowAt: WORKFLOW_AT },
  });
  console.log(md);
  if (env.BENCH_WRITE_DOCS === "1") {
    writeDocsBlock(
      path.join(REPO_ROOT, "docs", "benchmarks.md"),
      { begin: "<!-- bench:codemode:begin (written by bench/codemode/run.ts) -->", end: "<!-- bench:codemode:end -->", heading: "Code mode (bench/codemode)" },
      md,
    );
  }
}

await main();
