// The worker thread that runs programs. Its source is built as a string (workerSource) and started with
// `new Worker(source, { eval: true })`: no worker file path has to survive the Next.js server bundle, vitest or tsx.
// `workerMain`, `runProgram` and its parts (run-parts.ts) are serialized with Function.prototype.toString, so each
// stays self-contained.
// quickjs-emscripten is loaded inside the worker with a require made from `moduleDir` (the app's root).
import type { MessagePort, receiveMessageOnPort } from "node:worker_threads";
import type { QuickJSWASMModule } from "quickjs-emscripten";
import { bundlerNameHelper, runProgram, type OutgoingCall, type RunHost, type RunJob, type RunOutcome } from "./quickjs-runner";
import { runPartsSource } from "./run-parts";

export type WorkerData = {
  /** Directory whose node_modules holds quickjs-emscripten. */
  moduleDir: string;
  /** Start a fresh WASM module after this many runs (WASM memory never shrinks). */
  recycleAfterRuns: number;
  /** Maximum of each WASM module's linear memory: the hard cap of the VM's heap. */
  wasmMemoryBytes: number;
  /**
   * One Int32 the pool sets to 1 (and notifies) after posting answers: a running program's worker sleeps on it
   * and takes the answers with receiveMessageOnPort, without a turn of its event loop.
   */
  doorbell: SharedArrayBuffer;
};

/** An answer names its run: call ids start again in every run, so one for an earlier run must never match. */
export type ToWorker = { type: "run"; id: number; job: RunJob } | { type: "answer"; id: number; callId: number; answer: string };

export type FromWorker =
  | { type: "ready" }
  | { type: "fatal"; message: string }
  /** The calls a program queued between two waits (several when it started them together). */
  | { type: "calls"; id: number; calls: OutgoingCall[] }
  | { type: "done"; id: number; outcome: RunOutcome };

type QuickJSPackage = {
  newQuickJSWASMModule(variant: unknown): Promise<QuickJSWASMModule>;
  newVariant(base: unknown, options: { wasmMemory: WebAssembly.Memory; wasmModule?: WebAssembly.Module }): unknown;
  RELEASE_SYNC: unknown;
  /** The release-sync WASM, compiled once per worker, so a fresh module is only an instantiation. */
  wasmModule?: WebAssembly.Module;
};

export function workerMain(
  port: MessagePort,
  quickjs: QuickJSPackage,
  run: (QuickJS: QuickJSWASMModule, job: RunJob, host: RunHost) => RunOutcome,
  data: WorkerData,
  receive: typeof receiveMessageOnPort,
): void {
  const send = (message: FromWorker) => port.postMessage(message);
  // QuickJS's own accounting misses large buffers in this build (no malloc_usable_size), so the module's linear
  // memory gets a maximum: past it malloc fails and the VM throws "out of memory".
  const memoryPages = Math.ceil(data.wasmMemoryBytes / 65536);
  const freshModule = () =>
    quickjs.newQuickJSWASMModule(
      quickjs.newVariant(quickjs.RELEASE_SYNC, {
        wasmMemory: new WebAssembly.Memory({ initial: 256, maximum: memoryPages }),
        ...(quickjs.wasmModule && { wasmModule: quickjs.wasmModule }),
      }),
    );
  let module = freshModule();
  let runsOnModule = 0;
  const doorbell = new Int32Array(data.doorbell);
  /** Runs that arrived while a program was waiting for answers (the pool sends one at a time; kept to be safe). */
  const later: ToWorker[] = [];
  /** A slice, so a worker being terminated stops within it even if a wait were not interruptible. */
  const WAIT_SLICE_MS = 50;
  const SPIN_MS = 0.1;
  let spin = true;
  /** The run in progress: answers to any other (one that ended with calls still out) are dropped. */
  let current = 0;
  const waitForAnswers = (timeoutMs: number) => {
    const answers: { callId: number; answer: string }[] = [];
    const started = performance.now();
    let budget = timeoutMs;
    for (;;) {
      // Cleared before draining: answers posted after the drain set it again, so the wait returns at once.
      Atomics.store(doorbell, 0, 0);
      for (let m = receive(port); m !== undefined; m = receive(port)) {
        const message = m.message as ToWorker;
        if (message.type !== "answer") later.push(message);
        else if (message.id === current) answers.push({ callId: message.callId, answer: message.answer });
      }
      if (answers.length > 0 || budget <= 0) {
        if (answers.length > 0) spin = performance.now() - started <= SPIN_MS;
        return answers;
      }
      // Adaptive spin: while answers keep coming back within SPIN_MS (a tool that answers at once), check the
      // doorbell for that long before sleeping; waking a sleeping thread costs tens of µs on a virtual CPU.
      // Slower answers turn it off, so a program waiting on real tool calls sleeps at once.
      if (spin) {
        const until = performance.now() + SPIN_MS;
        while (Atomics.load(doorbell, 0) === 0 && performance.now() < until);
      }
      const slice = Math.min(budget, WAIT_SLICE_MS);
      Atomics.wait(doorbell, 0, 0, slice);
      budget = Atomics.load(doorbell, 0) === 1 ? 0 : budget - slice;
    }
  };
  const warmLimits = {
    wallMs: 5000,
    memoryBytes: 16 * 1024 * 1024,
    maxStackBytes: 256 * 1024,
    maxToolCalls: 1,
    maxOutputBytes: 1024,
  };

  const execute = async (id: number, job: RunJob): Promise<RunOutcome> => {
    const QuickJS = await module;
    current = id;
    const outcome = run(QuickJS, job, {
      send: (calls) => send({ type: "calls", id, calls }),
      wait: waitForAnswers,
    });
    runsOnModule++;
    const stopped = outcome.error?.name === "TimeoutError" || outcome.error?.name === "MemoryError";
    if (outcome.leaked === true || stopped || runsOnModule >= data.recycleAfterRuns) {
      runsOnModule = 0;
      module = freshModule();
    }
    return outcome;
  };

  const onMessage = (message: ToWorker) => {
    // An answer that comes after its run ended (the program finished without awaiting it) is dropped.
    if (message.type === "answer") return;
    execute(message.id, message.job).then(
      (outcome) => {
        send({ type: "done", id: message.id, outcome });
        const next = later.shift();
        if (next) onMessage(next);
      },
      (err: unknown) => {
        const text = err instanceof Error ? err.message : "the sandbox failed";
        send({
          type: "done",
          id: message.id,
          outcome: { error: { name: "SandboxError", message: text }, logs: [], toolCalls: 0, truncated: false },
        });
      },
    );
  };
  port.on("message", onMessage);

  // Warm the module and the runner's code paths before taking work.
  module
    .then((QuickJS) =>
      run(
        QuickJS,
        { source: "(async () => 1)", limits: warmLimits },
        { send: () => {}, wait: () => [] },
      ),
    )
    .then(
      (warm) =>
        send(
          warm.resultJson === "1"
            ? { type: "ready" }
            : { type: "fatal", message: `warm-up run failed: ${warm.error?.message ?? "no result"}` },
        ),
      (err: unknown) =>
        send({ type: "fatal", message: err instanceof Error ? err.message : "the sandbox could not start" }),
    );
}

/** The worker's whole source: plain JavaScript that Node runs as a CommonJS script. */
export function workerSource(): string {
  const nameHelper = bundlerNameHelper() ?? "__name";
  return [
    '"use strict";',
    // tsx (esbuild keepNames) wraps nested functions in __name(fn, "name"); the serialized code needs it too.
    `var ${nameHelper} = function (target) { return target; };`,
    'const { parentPort, workerData, receiveMessageOnPort } = require("node:worker_threads");',
    'const { createRequire } = require("node:module");',
    "let quickjs;",
    "try {",
    '  const fromApp = createRequire(require("node:path").join(workerData.moduleDir, "package.json"));',
    '  const fromQuickJS = createRequire(fromApp.resolve("quickjs-emscripten"));',
    '  const wasm = require("node:fs").readFileSync(fromQuickJS.resolve("@jitl/quickjs-wasmfile-release-sync/wasm"));',
    '  quickjs = Object.assign({}, fromApp("quickjs-emscripten"), { wasmModule: new WebAssembly.Module(wasm) });',
    '} catch (err) { parentPort.postMessage({ type: "fatal", message: "cannot load quickjs-emscripten from " + workerData.moduleDir + ": " + err.message }); }',
    `const runParts = ${runPartsSource()};`,
    `const runProgram = (${runProgram.toString()});`,
    "if (quickjs) {",
    `  try { (${workerMain.toString()})(parentPort, quickjs, (q, job, host) => runProgram(q, job, host, runParts), workerData, receiveMessageOnPort); }`,
    '  catch (err) { parentPort.postMessage({ type: "fatal", message: "the sandbox worker failed to start: " + (err && err.message) }); }',
    "}",
  ].join("\n");
}
