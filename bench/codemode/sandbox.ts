// The sandbox alone (server/codemode/executor-pool.ts, as createGateway builds it: 2 worker threads):
// (2) start to first instruction, (3a) the bridge's cost per tool call, (5) time and memory limits.
import { Worker } from "node:worker_threads";
import { createExecutorPool, type ExecutorPool } from "../../server/codemode/executor-pool";
import type { BridgeAnswer, ToolBridge } from "../../server/codemode/executor";
import { percentile } from "../sandbox/rounds";

const median = (xs: number[]) => percentile(xs, 50);

export type StartupResult = { warmup: number; js: number[]; detected: number[]; workersReplaced: number };
export type BridgeMicroResult = { calls: number; reps: number; perCallUs: number[]; directUs: number[]; emptyLoopMs: number[] };
export type VmGapResult = { calls: number; reps: number; gapsMs: number[]; workUs: number[][] };
export type BridgeSleepingResult = { calls: number; reps: number; delayMs: number; programMs: number[]; directMs: number[]; perCallUs: number[] };
export type LimitsResult = {
  timeouts: { wallMs: number; overshoot: number[]; afterStart: number[]; names: string[] }[];
  memory: { memoryBytes: number; ms: number[]; names: string[]; messages: string[]; nextRunOk: boolean; workersReplaced: number };
};

/** The answer of a tool that costs nothing: what is left is the bridge. */
const VALUE: BridgeAnswer = { ok: true, value: { id: "contact_1", email: "ada@example.com", lifecycle_stage: "customer" } };
const instant: ToolBridge = { call: () => Promise.resolve(VALUE) };

export function benchPool(): ExecutorPool {
  return createExecutorPool({ size: 2, limits: { maxToolCalls: 10_000 } });
}

/**
 * ExecResult.startupMs of `return 1` on a warmed pool, one run at a time: with language "js" (no type stripping)
 * and with the default (detected: esbuild strips types first, as execute_code does when no language is given).
 */
export async function measureStartup(pool: ExecutorPool, runs: number, warmup: number): Promise<StartupResult> {
  const js: number[] = [];
  const detected: number[] = [];
  const before = pool.stats().workersReplaced;
  for (let i = 0; i < warmup + runs; i++) {
    // Alternating, so drifting load falls on both alike.
    for (const language of i % 2 === 0 ? (["js", undefined] as const) : ([undefined, "js"] as const)) {
      const r = await pool.execute("return 1;", instant, language ? { language } : {});
      if (r.result !== 1 || r.startupMs === undefined) throw new Error(`startup run failed: ${JSON.stringify(r.error)}`);
      if (i >= warmup) (language ? js : detected).push(r.startupMs);
    }
  }
  return { warmup, js, detected, workersReplaced: pool.stats().workersReplaced - before };
}

/**
 * Per inner call: (a program making `calls` sequential calls − the same loop without them) / calls, against the
 * same calls as direct awaits of the bridge function in this thread.
 */
export async function measureBridgeMicro(pool: ExecutorPool, calls: number, reps: number): Promise<BridgeMicroResult> {
  const withCalls = `let last; for (let i = 0; i < ${String(calls)}; i++) last = await tools.crm.get_contact({ contact_id: "contact_" + i }); return last.id;`;
  const without = `let last; for (let i = 0; i < ${String(calls)}; i++) last = await Promise.resolve({ contact_id: "contact_" + i }); return last.contact_id;`;
  const perCallUs: number[] = [];
  const directUs: number[] = [];
  const emptyLoopMs: number[] = [];
  for (let rep = -2; rep < reps; rep++) {
    const a = await pool.execute(withCalls, instant, { language: "js" });
    const b = await pool.execute(without, instant, { language: "js" });
    if (a.error || b.error || a.toolCalls !== calls) throw new Error(`bridge run failed: ${JSON.stringify(a.error ?? b.error)}`);
    const t = performance.now();
    let last: BridgeAnswer | undefined;
    for (let i = 0; i < calls; i++) last = await instant.call("crm", "get_contact", JSON.parse(JSON.stringify({ contact_id: `contact_${String(i)}` })));
    const direct = performance.now() - t;
    if (!last?.ok) throw new Error("direct call failed");
    if (rep < 0) continue; // warm-up
    perCallUs.push(((a.durationMs - b.durationMs) / calls) * 1000);
    directUs.push((direct / calls) * 1000);
    emptyLoopMs.push(b.durationMs);
  }
  return { calls, reps, perCallUs, directUs, emptyLoopMs };
}

/**
 * The same with a tool that answers after `delayMs` (a timer in the gateway's thread), so the worker goes to sleep
 * between calls, as it does behind real tool calls: (program − the same awaits made directly) / calls.
 */
export async function measureBridgeSleeping(pool: ExecutorPool, calls: number, delayMs: number, reps: number): Promise<BridgeSleepingResult> {
  // Timers fire on whole milliseconds of the loop's clock, so a plain setTimeout waits 5–6 ms depending on when in a
  // millisecond the call came: the last millisecond is waited out with setImmediate turns (no sleep, no spin).
  const after = (ms: number) =>
    new Promise<void>((resolve) => {
      const due = performance.now() + ms;
      const check = () => (performance.now() >= due ? resolve() : setImmediate(check));
      setTimeout(check, Math.max(0, ms - 1.5));
    });
  const delayed: ToolBridge = { call: () => after(delayMs).then(() => VALUE) };
  const code = `let last; for (let i = 0; i < ${String(calls)}; i++) last = await tools.crm.get_contact({ contact_id: "contact_" + i }); return last.id;`;
  const out: BridgeSleepingResult = { calls, reps, delayMs, programMs: [], directMs: [], perCallUs: [] };
  for (let rep = -1; rep < reps; rep++) {
    const a = await pool.execute(code, delayed, { language: "js" });
    if (a.error || a.toolCalls !== calls) throw new Error(`bridge run failed: ${JSON.stringify(a.error)}`);
    const t = performance.now();
    for (let i = 0; i < calls; i++) await delayed.call("crm", "get_contact", JSON.parse(JSON.stringify({ contact_id: `contact_${String(i)}` })));
    const direct = performance.now() - t;
    if (rep < 0) continue;
    out.programMs.push(a.durationMs / calls);
    out.directMs.push(direct / calls);
    out.perCallUs.push(((a.durationMs - direct) / calls) * 1000);
  }
  return out;
}

/**
 * The VM's own work per call in this thread alone (no worker, no message, no sleep): runProgram with a host whose
 * wait() busy-waits `gap` ms before handing back the answer, timed from the answer's delivery to the next call
 * leaving. Whatever grows with the gap is the host CPU's doing (caches shared with other work), not the bridge's.
 */
export async function measureVmGap(calls: number, gapsMs: number[], reps: number): Promise<VmGapResult> {
  const { newQuickJSWASMModule } = await import("quickjs-emscripten");
  const { runProgram, wrapProgram } = await import("../../server/codemode/quickjs-runner");
  const { RUN_PARTS } = await import("../../server/codemode/run-parts");
  const QuickJS = await newQuickJSWASMModule();
  const limits = { wallMs: 120_000, memoryBytes: 64 << 20, maxStackBytes: 1 << 20, maxToolCalls: 100_000, maxOutputBytes: 20_000 };
  const source = wrapProgram(`let last; for (let i = 0; i < ${String(calls)}; i++) last = await tools.crm.get_contact({ contact_id: "contact_" + i }); return last.id;`);
  const answer = JSON.stringify(VALUE);
  const workUs = gapsMs.map(() => [] as number[]);
  for (let rep = -1; rep < reps; rep++) {
    gapsMs.forEach((gap, g) => {
      let queued: { callId: number; answer: string }[] = [];
      let delivered = 0;
      const work: number[] = [];
      runProgram(QuickJS, { source, limits }, {
        send: (out) => {
          if (delivered) work.push(performance.now() - delivered);
          for (const c of out) queued.push({ callId: c.callId, answer });
        },
        wait: () => {
          const until = performance.now() + gap;
          while (performance.now() < until);
          const a = queued;
          queued = [];
          delivered = performance.now();
          return a;
        },
      }, RUN_PARTS);
      if (rep >= 0) workUs[g]!.push(median(work) * 1000);
    });
  }
  return { calls, reps, gapsMs, workUs };
}

/** An infinite loop at several wall limits (overshoot = durationMs − wallMs), and a memory bomb. */
export async function measureLimits(pool: ExecutorPool, plan: { wallMs: number; runs: number }[], memoryRuns: number): Promise<LimitsResult> {
  const timeouts: LimitsResult["timeouts"] = [];
  for (const { wallMs, runs } of plan) {
    const overshoot: number[] = [];
    const afterStart: number[] = [];
    const names = new Set<string>();
    for (let i = 0; i < runs; i++) {
      const r = await pool.execute("while (true) {}", instant, { language: "js", wallMs });
      names.add(r.error?.name ?? "none");
      overshoot.push(r.durationMs - wallMs);
      afterStart.push(r.durationMs - (r.startupMs ?? 0) - wallMs);
    }
    timeouts.push({ wallMs, overshoot, afterStart, names: [...names] });
  }
  const before = pool.stats().workersReplaced;
  const ms: number[] = [];
  const names = new Set<string>();
  const messages = new Set<string>();
  let nextRunOk = true;
  for (let i = 0; i < memoryRuns; i++) {
    const r = await pool.execute("const keep = []; for (let i = 0; ; i++) keep.push(new Array(100000).fill(i));", instant, { language: "js", wallMs: 30_000 });
    names.add(r.error?.name ?? "none");
    if (r.error) messages.add(r.error.message);
    ms.push(r.durationMs);
    const next = await pool.execute("return [1, 2, 3].map((x) => x * 2);", instant, { language: "js" });
    nextRunOk &&= JSON.stringify(next.result) === "[2,4,6]";
  }
  return {
    timeouts,
    memory: { memoryBytes: 64 * 1024 * 1024, ms, names: [...names], messages: [...messages], nextRunOk, workersReplaced: pool.stats().workersReplaced - before },
  };
}

/**
 * The floor under the bridge: a bare worker-thread echo of a message like a bridge answer, per round trip. A tool
 * call from a program is one such round trip (call out, answer back) plus the VM's and the JSON's work.
 */
export async function measureThreadHop(roundTrips: number, reps: number): Promise<number[]> {
  const worker = new Worker(`const { parentPort } = require("node:worker_threads"); parentPort.on("message", (m) => parentPort.postMessage(m));`, { eval: true });
  const message = { type: "answer", callId: 1, answer: JSON.stringify(VALUE) };
  const roundTrip = () =>
    new Promise<void>((resolve) => {
      worker.once("message", () => resolve());
      worker.postMessage(message);
    });
  const us: number[] = [];
  try {
    for (let i = 0; i < 500; i++) await roundTrip();
    for (let rep = 0; rep < reps; rep++) {
      const t = performance.now();
      for (let i = 0; i < roundTrips; i++) await roundTrip();
      us.push(((performance.now() - t) / roundTrips) * 1000);
    }
  } finally {
    await worker.terminate();
  }
  return us;
}

export { median };
