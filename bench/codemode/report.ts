// Renders a run of bench/codemode as the Markdown block of docs/benchmarks.md.
import { machineTable } from "../gateway/report";
import { percentile } from "../sandbox/rounds";
import type { ContextSample } from "./context";
import type { ParallelResult, PipelineBridgeResult, WorkflowResult, WorkflowRun } from "./e2e";
import type { BridgeMicroResult, BridgeSleepingResult, LimitsResult, StartupResult, VmGapResult } from "./sandbox";

export type CodeModeReport = {
  facts: Record<string, string>;
  durationS: number;
  loadAtStart: number;
  loadAtEnd: number;
  hop: number[];
  /** The same round trip measured again inside the gateway phase, just before the end-to-end bridge. */
  hopInGateway: number[];
  startup: StartupResult;
  micro: BridgeMicroResult;
  sleeping: BridgeSleepingResult;
  vmGap: VmGapResult;
  limits: LimitsResult;
  context: ContextSample[];
  registration: { tools: number; servers: number; started: number; seconds: number }[];
  skipped: string[];
  e2e: { pipeline: PipelineBridgeResult; parallel: ParallelResult; workflow: WorkflowResult; workflowAt: number };
};

const p = (xs: number[], q: number) => percentile(xs, q);
const ms = (v: number) => (Number.isNaN(v) ? "–" : Math.abs(v) < 0.005 ? "0.00" : Math.abs(v) < 10 ? v.toFixed(2) : v.toFixed(1));
const us = (v: number) => v.toFixed(0);
const int = (v: number) => Math.round(v).toLocaleString("en-US");
const pct = (v: number) => `${(v * 100).toFixed(1)} %`;
const verdict = (met: boolean, why = "") => (met ? "met" : `**not met**${why ? ` (${why})` : ""}`);
const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);

function contextLines(r: CodeModeReport): { targets: string[]; detail: string[] } {
  const rows = r.context;
  const at500 = rows.find((c) => c.tools === 500) ?? rows[Math.floor(rows.length / 2)]!;
  const saved = (c: ContextSample) => 1 - c.code.total / c.aggregate.tokens;
  const totals = rows.map((c) => c.code.total);
  const flat = Math.max(...totals) / Math.min(...totals);
  const own = sum(Object.entries(at500.codeTools).filter(([n]) => n === "search_tools" || n === "execute_code").map(([, t]) => t));
  const shared = at500.code.listTokens - own;
  const target99 = at500.aggregate.tokens * 0.01;
  return {
    targets: [
      `| 1 | context at start-up, ${int(at500.tools)} tools: /mcp/code (tools/list + one search_tools answer) against /mcp (tools/list) | ${int(at500.code.total)} against ${int(at500.aggregate.tokens)} tokens: ${pct(saved(at500))} fewer | ≥ 99 % fewer | ${verdict(saved(at500) >= 0.99, `${int(at500.code.total - target99)} tokens over 1 % of /mcp`)} |`,
      `| 1 | code-mode surface at ${rows.map((c) => int(c.tools)).join(" / ")} tools | ${totals.map(int).join(" / ")} tokens | < 1,000 whatever the number of tools | flat (max/min ${flat.toFixed(2)}): ${verdict(flat < 1.15)}; under 1,000: ${verdict(Math.max(...totals) < 1000, `${(Math.max(...totals) / 1000).toFixed(1)}× over`)} |`,
    ],
    detail: [
      "| tools | servers | /mcp: tools listed | /mcp: tools/list tokens (bytes) | /mcp/code: tools/list tokens | search_tools answer tokens: whole result (its text alone) | /mcp/code total | fewer | with the answer's text alone |",
      "| ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |",
      ...rows.map(
        (c) =>
          `| ${int(c.tools)} | ${String(c.servers)} | ${String(c.aggregate.listed)} | ${int(c.aggregate.tokens)} (${int(c.aggregate.bytes)}) | ${int(c.code.listTokens)} | ${int(c.code.searchTokens)} (${int(c.code.searchTextTokens)}) | ${int(c.code.total)} | ${pct(saved(c))} | ${int(c.code.listTokens + c.code.searchTextTokens)}, ${pct(1 - (c.code.listTokens + c.code.searchTextTokens) / c.aggregate.tokens)} fewer |`,
      ),
      "",
      `Tokens of each tool /mcp/code lists: ${Object.entries(at500.codeTools)
        .map(([n, t]) => `${n} ${String(t)}`)
        .join(", ")}. search_tools and execute_code themselves are ${String(own)}; the ${String(at500.code.listed - 2)} task and approval tools (${String(shared)} tokens) are listed on /mcp as well (its ${String(at500.aggregate.listed)} tools are the ${int(at500.tools)} upstream tools plus these).`,
      `Registration (one stdio process per server; a server whose share grew is re-launched): ${r.registration.map((g) => `${int(g.tools)} tools on ${String(g.servers)} servers, ${String(g.started)} (re)started, ${g.seconds.toFixed(0)} s`).join("; ")}.${r.skipped.length ? ` Skipped: ${r.skipped.join("; ")}.` : ""}`,
    ],
  };
}

function workflowCell(runs: WorkflowRun[]): string {
  const first = runs[0]!;
  return `${ms(p(runs.map((w) => w.wallMs), 50))} ms (p95 ${ms(p(runs.map((w) => w.wallMs), 95))}) | ${int(first.argTokens)} | ${int(first.resultTokens)} (${int(first.resultTextTokens)}) | ${int(first.resultBytes)} | ${int(first.argTokens + first.resultTokens)} | ${int(first.cumulativeInputTokens)}`;
}

export function renderReport(r: CodeModeReport): string {
  const m = r.facts;
  const ctx = contextLines(r);
  const s = r.startup;
  const jsP50 = p(s.js, 50);
  const jsP95 = p(s.js, 95);
  const detP50 = p(s.detected, 50);
  const detP95 = p(s.detected, 95);
  const micro = p(r.micro.perCallUs, 50) - p(r.micro.directUs, 50);
  const pipe = r.e2e.pipeline;
  const pipeOver = p(pipe.overheadUs, 50);
  const sleepOver = p(r.sleeping.perCallUs, 50);
  const par = r.e2e.parallel;
  const parRatio = p(par.ratios, 50);
  const parMax = p(par.ratios, 100);
  const overshoots = r.limits.timeouts;
  const worst95 = Math.max(...overshoots.map((t) => p(t.overshoot, 95)));
  const worstAfter95 = Math.max(...overshoots.map((t) => p(t.afterStart, 95)));
  const mem = r.limits.memory;
  const wf = r.e2e.workflow;
  const c0 = wf.code[0]!;
  const d0 = wf.direct[0]!;
  const tokenRatio = (d0.argTokens + d0.resultTokens) / (c0.argTokens + c0.resultTokens);
  return [
    `Run of ${m.date!} at commit ${m.commit!}, ${r.durationS.toFixed(0)} s in all. Load average (1 min) ${r.loadAtStart.toFixed(1)} at the start, ${r.loadAtEnd.toFixed(1)} at the end, on ${m.nproc!} CPUs (other work on a shared machine slows every time here; token counts do not depend on it).`,
    "",
    ...machineTable(m),
    "",
    "**Against the targets**",
    "",
    "| # | measure | measured | target | |",
    "| --- | --- | --- | --- | --- |",
    ...ctx.targets,
    `| 2 | sandbox start to first instruction, p50 / p95 (language "js") | ${ms(jsP50)} / ${ms(jsP95)} ms | ≤ 2 / ≤ 5 ms | ${verdict(jsP50 <= 2 && jsP95 <= 5)} |`,
    `| 2 | the same with type stripping (no language: execute_code's default) | ${ms(detP50)} / ${ms(detP95)} ms | ≤ 2 / ≤ 5 ms | ${verdict(detP50 <= 2 && detP95 <= 5, `+${ms(Math.max(0, detP50 - 2))} ms at p50, +${ms(Math.max(0, detP95 - 5))} ms at p95`)} |`,
    `| 3 | bridge per inner call, a tool that answers at once (median of ${String(r.micro.reps)} × ${int(r.micro.calls)} calls) | ${us(micro)} µs over a direct await | ≤ 100 µs | ${verdict(micro <= 100, `${us(micro - 100)} µs over`)} |`,
    `| 3 | bridge per inner call, a tool that answers after ${String(r.sleeping.delayMs)} ms: the worker sleeps between calls (median of ${String(r.sleeping.reps)} × ${String(r.sleeping.calls)} calls) | ${us(sleepOver)} µs over the same awaits made directly | ≤ 100 µs | ${verdict(sleepOver <= 100, `${us(sleepOver - 100)} µs over`)} |`,
    `| 3 | bridge per inner call, end to end through the pipeline (median of ${String(pipe.reps)} × ${String(pipe.calls)} calls) | ${us(pipeOver)} µs over the pipeline's own time | ≤ 100 µs | ${verdict(pipeOver <= 100, `${us(pipeOver - 100)} µs over`)} |`,
    `| 4 | ${String(par.parallel)} parallel calls of a ${String(par.ms)} ms tool / the slowest of them (median, max of ${String(par.ratios.length)}) | ${parRatio.toFixed(2)}× (max ${parMax.toFixed(2)}×) | ≤ 1.1× | ${verdict(parRatio <= 1.1)} |`,
    `| 5 | time-limit overshoot from execute(), p50 / p95 at ${overshoots.map((t) => `${String(t.wallMs)}`).join(" / ")} ms | ${overshoots.map((t) => `${ms(p(t.overshoot, 50))} / ${ms(p(t.overshoot, 95))}`).join("; ")} ms | ≤ 20 ms | ${verdict(worst95 <= 20, `p95 up to ${ms(worst95)} ms from execute(), ${ms(worstAfter95)} ms from the first instruction`)} |`,
    `| 5 | memory bomb at ${String(mem.memoryBytes / 2 ** 20)} MiB (${String(mem.ms.length)} runs) | ${mem.names.join(", ")} after ${ms(p(mem.ms, 50))} ms (max ${ms(p(mem.ms, 100))}); next run on the pool ${mem.nextRunOk ? "fine" : "FAILED"}, ${String(mem.workersReplaced)} workers replaced | MemoryError, the worker survives | ${verdict(mem.names.length === 1 && mem.names[0] === "MemoryError" && mem.nextRunOk && mem.workersReplaced === 0)} |`,
    `| 6 | 10-call workflow over HTTP, code mode against direct tools/call: wall time p50; tokens through the model | ${ms(p(wf.code.map((w) => w.wallMs), 50))} against ${ms(p(wf.direct.map((w) => w.wallMs), 50))} ms; ${int(c0.argTokens + c0.resultTokens)} against ${int(d0.argTokens + d0.resultTokens)} tokens (${tokenRatio.toFixed(1)}× fewer) | – | – |`,
    "",
    `**(1) Context at start-up** (o200k_base tokens of the JSON an agent reads: /mcp's tools/list result; /mcp/code's tools/list result plus one search_tools call's result, \`{ query: "refund a customer's order and email them", detail: "summary", limit: 10 }\`, counted whole (text content and structuredContent, as the gateway answers) and as its text alone)`,
    "",
    ...ctx.detail,
    "",
    `**(2) Start to first instruction** (ExecResult.startupMs: execute() to the program's first instruction; \`return 1\`, one run at a time on a warmed pool of 2 workers, ${String(s.warmup)} warm-up runs, then ${int(s.js.length)} runs per variant, alternating)`,
    "",
    "| variant | runs | p50 ms | p95 ms | p99 ms | max ms |",
    "| --- | ---: | ---: | ---: | ---: | ---: |",
    `| language "js" (no type stripping) | ${int(s.js.length)} | ${ms(jsP50)} | ${ms(jsP95)} | ${ms(p(s.js, 99))} | ${ms(p(s.js, 100))} |`,
    `| no language (esbuild strips types first) | ${int(s.detected.length)} | ${ms(detP50)} | ${ms(detP95)} | ${ms(p(s.detected, 99))} | ${ms(p(s.detected, 100))} |`,
    "",
    `Workers replaced meanwhile: ${String(s.workersReplaced)} (each worker also starts a fresh WASM module every 500 runs; those runs are in the tail).`,
    "",
    "**(3) The bridge**",
    "",
    `- A tool that answers at once (a ToolBridge resolving immediately, no pipeline): per call ${r.micro.perCallUs.map(us).join(", ")} µs (program with ${int(r.micro.calls)} sequential calls minus the same loop without them, ÷ ${int(r.micro.calls)}), against ${r.micro.directUs.map((v) => v.toFixed(1)).join(", ")} µs for the same call as a direct await in the gateway's thread. Median difference **${us(micro)} µs**.`,
    `- The floor under it: a bare worker-thread round trip of such an answer on this machine, ${r.hop.map(us).join(", ")} µs (median ${us(p(r.hop, 50))} µs) at the start of the run, and ${r.hopInGateway.map(us).join(", ")} µs (median ${us(p(r.hopInGateway, 50))} µs) measured again in the gateway's process right before the end-to-end part, with the upstream processes and PostgreSQL running. Every inner call is one round trip (the calls a program started leave in one message when it waits; the answers come back to a worker sleeping on a futex doorbell, spinning briefly first while answers keep coming back within 0.1 ms) plus the VM's work (JSON of the arguments and the answer, the promise settled, pending jobs run).`,
    `- A tool that answers after ${String(r.sleeping.delayMs)} ms (a timer in the gateway's thread; the worker sleeps between calls, as behind real tool calls): per call the program ${r.sleeping.programMs.map(ms).join(", ")} ms, the same awaits made directly ${r.sleeping.directMs.map(ms).join(", ")} ms; difference ${r.sleeping.perCallUs.map(us).join(", ")} µs, median **${us(sleepOver)} µs**.`,
    `- The VM's own work per call in one thread (no worker, no message, no sleep: the host busy-waits before handing each answer back; from the answer's delivery to the next call leaving, median per run of ${String(r.vmGap.calls)} calls, ${String(r.vmGap.reps)} runs): ${r.vmGap.gapsMs.map((g, i) => `${String(g)} ms between calls: ${r.vmGap.workUs[i]!.map(us).join(", ")} µs`).join("; ")}. The same instructions cost more the longer the gap before them, with no thread involved: on this shared host the VM's code and data leave the CPU caches while a call is out.`,
    `- End to end through the pipeline: \`${pipe.tool}\` (a realistic stdio upstream answering at once) ${String(pipe.calls)} times from one program (the console playground's path) and ${String(pipe.calls)} times as direct pipeline calls (tryToolCall, the same grant and endpoint), alternating, ${String(pipe.reps)} rounds. Per call: the program ${pipe.programMs.map(ms).join(", ")} ms; inside the pipeline as the runner timed each inner call ${pipe.innerMs.map(ms).join(", ")} ms; direct ${pipe.directMs.map(ms).join(", ")} ms. The program's time outside the pipeline, per call (paired within each run): ${pipe.overheadUs.map(us).join(", ")} µs, median **${us(pipeOver)} µs**; program minus direct, per call (paired by round): ${pipe.programMs.map((v, i) => ms(v - pipe.directMs[i]!)).join(", ")} ms, median ${ms(p(pipe.programMs.map((v, i) => v - pipe.directMs[i]!), 50))} ms.`,
    "",
    `**(4) Parallel inner calls** (over HTTP on /mcp/code; \`ops.slow_read({ ms: ${String(par.ms)} })\` of the misbehaving fixture, ${String(par.parallel)} in one Promise.all, each call and the whole timed with Date.now() inside the program; then one call alone)`,
    "",
    `- whole / slowest: ${par.ratios.map((v) => v.toFixed(2)).join(", ")}`,
    `- whole: ${par.totals.map(String).join(", ")} ms; slowest of the ${String(par.parallel)}: ${par.slowest.map(String).join(", ")} ms; one call alone: ${par.singles.map(String).join(", ")} ms`,
    "",
    "**(5) Limits** (an infinite loop; overshoot = ExecResult.durationMs − wallMs, so it includes handing the run to a worker and starting the VM; from the first instruction it can be slightly negative, as the VM's deadline counts from the VM's creation; then a memory bomb pushing 100,000-element arrays, followed each time by an ordinary run on the same pool)",
    "",
    "| wallMs | runs | error | overshoot from execute(): p50 ms | p95 ms | max ms | from the first instruction: p50 ms | p95 ms | max ms |",
    "| ---: | ---: | --- | ---: | ---: | ---: | ---: | ---: | ---: |",
    ...overshoots.map(
      (t) =>
        `| ${String(t.wallMs)} | ${String(t.overshoot.length)} | ${t.names.join(", ")} | ${ms(p(t.overshoot, 50))} | ${ms(p(t.overshoot, 95))} | ${ms(p(t.overshoot, 100))} | ${ms(p(t.afterStart, 50))} | ${ms(p(t.afterStart, 95))} | ${ms(p(t.afterStart, 100))} |`,
    ),
    "",
    `Memory bomb: ${mem.names.join(", ")} (“${mem.messages.join("”, “")}”) after ${mem.ms.map((v) => v.toFixed(0)).join(", ")} ms.`,
    "",
    `**(6) A 10-call workflow** at ${int(r.e2e.workflowAt)} tools (find a refund ticket, its requester, the customer's order, invoice and returns, raise the ticket's priority: each call's arguments come from earlier answers; records as the fixture makes them, a few hundred bytes each, lists of 5–10). Code mode: one execute_code over HTTP on /mcp/code returning a 7-field summary; direct: the same ten calls as tools/call over HTTP on /mcp from an SDK client, the client doing the model's part (picking IDs from the answers) with no model in the loop. ${String(wf.reps)} runs each, alternating; both return the same summary.`,
    "",
    "| path | wall time p50 | tokens the model writes (tool-call requests) | tokens the model reads: results whole (text alone) | result bytes | total tokens | tokens re-read over the turns |",
    "| --- | ---: | ---: | ---: | ---: | ---: | ---: |",
    `| code mode (1 execute_code) | ${workflowCell(wf.code)} |`,
    `| direct (10 tools/call) | ${workflowCell(wf.direct)} |`,
    "",
    "\"Tokens re-read over the turns\": the direct agent needs one model turn per call, and turn k reads the k results so far; code mode has one turn. Neither column includes the tool definitions (part 1) or the model's own reasoning. The wall times leave out model turns, which in a real agent come on top: ten of them for direct calls, one for code mode.",
  ].join("\n");
}
