// Runs one agent program in a fresh QuickJS runtime and context (sync WASM build), inside a worker thread.
//
// `runProgram` is serialized with Function.prototype.toString into the worker's source (see worker.ts), so it must
// stay self-contained: no imports at run time, no module-level helpers, no classes; only its parameters and
// standard globals. What it is built from besides the VM's lifecycle and its loop comes as a parameter, each part a
// module of its own carried to the worker the same way (run-parts.ts): the VM's bootstrap (run-bootstrap.ts), what
// may be printed and returned (run-output.ts), which tool calls leave (run-calls.ts), how a failure is named
// (run-errors.ts). Only strings cross into and out of the VM: the program's source, tool arguments as JSON text
// (out), bridge answers as JSON text (in, parsed inside), log lines and the result as JSON text.
//
// Tool calls cross in batches, never one host function call each: the VM keeps each call's promise resolvers
// itself and queues the call in an outbox; after the VM's jobs have run, the host takes the whole outbox as one
// JSON text (`drain()`) and sends it out. The run is a loop on the worker's own thread: run the VM's jobs, send
// what they queued, then block in host.wait() until answers arrive; every answer that arrived together is handed
// in (`deliver(callId, answer)`) before the VM's jobs run again. A call still in the outbox when the program
// ends (started, never awaited, and the program returned first) never leaves the sandbox.
import type { QuickJSHandle, QuickJSWASMModule } from "quickjs-emscripten";
import type { ExecError, ExecLimits } from "./executor";
import type { OutgoingCall } from "./run-calls";
import type { RunParts } from "./run-parts";

export type RunJob = {
  /** Source whose completion value is the program's async main function (see wrapProgram). */
  source: string;
  limits: ExecLimits;
  /** Added to the VM's own deadline; tests use it to leave the stop to the parent's hard timeout. */
  deadlineSlackMs?: number;
};

export type { OutgoingCall } from "./run-calls";

export type RunHost = {
  /** Sends tool calls out: arguments as JSON text (absent when the program passed none). */
  send(calls: OutgoingCall[]): void;
  /** Blocks up to timeoutMs for answers (BridgeAnswers as JSON text) to calls sent out; returns what arrived. */
  wait(timeoutMs: number): { callId: number; answer: string }[];
};

export type RunOutcome = {
  /** The returned value as JSON text within maxOutputBytes (absent when the program returned undefined). */
  resultJson?: string;
  /** The returned JSON cut to maxOutputBytes, with a marker; replaces resultJson. */
  resultCut?: string;
  error?: ExecError;
  logs: string[];
  toolCalls: number;
  truncated: boolean;
  /** performance.timeOrigin + performance.now() at the program's first instruction. */
  startedAt?: number;
  /** The runtime could not be freed cleanly: the worker should not keep its WASM module. */
  leaked?: boolean;
};

/** The program as the body of an async function: `return` gives its result, `await` works at the top. */
export function wrapProgram(body: string): string {
  return `(async () => {\n${body}\n})`;
}

/**
 * Runs the program to its end in a fresh runtime and context. `parts`: RUN_PARTS (run-parts.ts), passed in so that
 * this function's source stays self-contained: the worker carries it and the parts as text (workerSource).
 */
export function runProgram(QuickJS: QuickJSWASMModule, job: RunJob, host: RunHost, parts: RunParts): RunOutcome {
  const { limits } = job;
  const clock = () => performance.timeOrigin + performance.now();
  const deadline = performance.now() + limits.wallMs + (job.deadlineSlackMs ?? 0);
  // The module's linear memory only grows: growth past memoryBytes within this run is this run's doing.
  const memory = QuickJS.getWasmMemory();
  const memoryCeiling = memory.buffer.byteLength + limits.memoryBytes;
  const output = parts.outputBounds(limits.maxOutputBytes);
  // Arguments are parsed on the gateway's event loop: a bound on their text keeps a program from stalling it.
  const maxArgsChars = 1024 * 1024;
  const gate = parts.callGate(limits.maxToolCalls, maxArgsChars);
  const errors = parts.errorNames(limits);
  const outcome: RunOutcome = { logs: [], toolCalls: 0, truncated: false };
  let timedOut = false;
  let memoryExceeded = false;
  let finished = false;
  let vmFailure: ExecError | undefined;
  const stopped = () => timedOut || memoryExceeded;
  const finish = (patch: Partial<RunOutcome>) => {
    if (finished) return;
    finished = true;
    Object.assign(outcome, patch);
  };
  const fail = (e: ExecError) => finish({ error: errors.named(e, { timedOut, overMemory: memoryExceeded || memory.buffer.byteLength > memoryCeiling }) });
  const interrupted: ExecError = { name: "InternalError", message: "interrupted" };

  const runtime = QuickJS.newRuntime();
  runtime.setMemoryLimit(limits.memoryBytes);
  runtime.setMaxStackSize(limits.maxStackBytes);
  runtime.setInterruptHandler(() => {
    if (memory.buffer.byteLength > memoryCeiling) memoryExceeded = true;
    else if (performance.now() > deadline) timedOut = true;
    return stopped();
  });
  const context = runtime.newContext();
  const inFlight = new Set<number>();
  const handles: QuickJSHandle[] = [];
  const keep = (h: QuickJSHandle) => {
    handles.push(h);
    return h;
  };
  const stringArg = (h: QuickJSHandle | undefined) => (h !== undefined && context.typeof(h) === "string" ? context.getString(h) : undefined);

  /** Runs the VM's microtasks after a host event, and notices a VM that was stopped from inside. */
  const pump = () => {
    if (finished) return;
    const jobs = runtime.executePendingJobs();
    if (jobs.error) fail(takeError(jobs.error));
    if (stopped()) fail(interrupted);
    else if (vmFailure) fail(vmFailure);
  };
  /**
   * Describes an error handle the VM returned, then frees it. Only for errors the VM could not describe itself
   * (interrupts, out of memory while describing).
   */
  const takeError = (h: QuickJSHandle): ExecError => {
    try {
      if (stopped()) return interrupted;
      const dumped: unknown = context.dump(h);
      if (dumped && typeof dumped === "object") {
        const d = dumped as { name?: unknown; message?: unknown };
        return { name: typeof d.name === "string" ? d.name : "Error", message: typeof d.message === "string" ? d.message : "" };
      }
      return { name: "Error", message: typeof dumped === "string" ? dumped : "the program failed" };
    } catch {
      return { name: "Error", message: "the program failed" };
    } finally {
      if (h.alive) h.dispose();
    }
  };

  /** Takes the VM's outbox and sends what the gate lets through; returns its refusals, to be delivered. */
  const flush = (drain: QuickJSHandle): { callId: number; answer: string }[] => {
    if (finished) return [];
    const drained = context.callFunction(drain, context.undefined);
    if (drained.error) {
      fail(takeError(drained.error));
      return [];
    }
    const text = context.getString(drained.value);
    drained.value.dispose();
    const { calls, refusals } = gate.take(text);
    for (const { callId } of [...calls, ...refusals]) inFlight.add(callId);
    outcome.toolCalls = gate.toolCalls();
    if (calls.length > 0) host.send(calls);
    return refusals;
  };
  const hostLog = keep(context.newFunction("log", (levelH, textH) => output.log(stringArg(levelH) ?? "log", stringArg(textH) ?? "")));
  const hostStarted = keep(
    context.newFunction("started", () => {
      outcome.startedAt = clock();
    }),
  );
  const hostFinish = keep(
    context.newFunction("finish", (kindH, jsonH) => {
      const json = stringArg(jsonH);
      if (stringArg(kindH) === "error") fail(errors.thrown(json));
      else finish(output.result(json));
    }),
  );

  /** Hands the answers that arrived to the VM, then runs what they woke. */
  const deliverAll = (deliver: QuickJSHandle, answers: { callId: number; answer: string }[]) => {
    for (const { callId, answer } of answers) {
      if (finished) return;
      if (!inFlight.delete(callId)) continue;
      const idH = context.newNumber(callId);
      const answerH = context.newString(answer);
      const done = context.callFunction(deliver, context.undefined, idH, answerH);
      idH.dispose();
      answerH.dispose();
      if (done.error) {
        fail(takeError(done.error));
        return;
      }
      done.value.dispose();
    }
    pump();
  };
  /** A value the bootstrap made, kept until the run ends; a failure here is the sandbox's, not the program's. */
  const booted = (result: ReturnType<typeof context.evalCode>): QuickJSHandle => {
    if (!result.error) return keep(result.value);
    const e = takeError(result.error);
    throw new Error(`bootstrap failed: ${e.name}: ${e.message}`);
  };

  try {
    const factory = booted(context.evalCode(parts.bootstrap, "portcullis-bootstrap.js"));
    const api = booted(context.callFunction(factory, context.undefined, hostLog, hostStarted, hostFinish));
    const run = keep(context.getProp(api, "run"));
    const deliver = keep(context.getProp(api, "deliver"));
    const drain = keep(context.getProp(api, "drain"));
    const source = keep(context.newString(job.source));
    const ran = context.callFunction(run, context.undefined, source);
    if (ran.error) vmFailure = takeError(ran.error);
    else ran.value.dispose();
    pump();
    let refused = flush(drain);
    // Nothing but answers can move a waiting program on (it has no timers): wait for them, up to the deadline.
    while (!finished) {
      if (refused.length > 0) {
        deliverAll(deliver, refused);
        refused = flush(drain);
        continue;
      }
      const left = deadline - performance.now();
      if (left <= 0) {
        timedOut = true;
        fail({ name: "TimeoutError", message: "" });
        break;
      }
      const answers = host.wait(left);
      if (answers.length > 0) {
        deliverAll(deliver, answers);
        refused = flush(drain);
      }
    }
  } catch (err) {
    fail(stopped() ? interrupted : errors.hostFault(err));
  } finally {
    inFlight.clear();
    for (const h of handles) if (h.alive) h.dispose();
    try {
      context.dispose();
      runtime.dispose();
    } catch {
      // A runtime stopped mid-job can hold objects QuickJS cannot account for; the worker recycles its module.
      outcome.leaked = true;
    }
  }
  const { logs, truncated } = output.logs();
  outcome.logs = logs;
  if (truncated) outcome.truncated = true;
  return outcome;
}

/**
 * esbuild's keepNames (tsx, some bundles) wraps named inner functions in a module-level helper, `__name(fn, "x")`,
 * renamed when minified. Serialized code needs that helper defined: this probe's own source shows its name.
 */
export function bundlerNameHelper(): string | undefined {
  const probeInner = () => probeInner;
  const source = String(bundlerNameHelper);
  void probeInner;
  return /=\s*(?:\/\*[^*]*\*\/\s*)?([A-Za-z_$][\w$]*)\(\s*\(\)\s*=>/.exec(source)?.[1];
}
