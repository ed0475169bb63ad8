// The worker thread that runs programs. Its source is built as a string (workerSource) and started with
// `new Worker(source, { eval: true })`: no worker file path has to survive the Next.js server bundle, vitest or tsx.
// `workerMain` and `runProgram` are serialized with Function.prototype.toString, so both stay self-contained.
// quickjs-emscripten is loaded inside the worker with a require made from `moduleDir` (the app's root).
import type { MessagePort } from "node:worker_threads";
import type { QuickJSWASMModule } from "quickjs-emscripten";
import { bundlerNameHelper, runProgram, type RunJob, type RunOutcome } from "./quickjs-runner";

export type WorkerData = {
  /** Directory whose node_modules holds quickjs-emscripten. */
  moduleDir: string;
  /** Start a fresh WASM module after this many runs (WASM memory never shrinks). */
  recycleAfterRuns: number;
  /** Maximum of each WASM module's linear memory: the hard cap of the VM's heap. */
  wasmMemoryBytes: number;
};

export type ToWorker = { type: "run"; id: number; job: RunJob } | { type: "answer"; callId: number; answer: string };

export type FromWorker =
  | { type: "ready" }
  | { type: "fatal"; message: string }
  | { type: "call"; id: number; callId: number; server: string; tool: string; args?: string }
  | { type: "done"; id: number; outcome: RunOutcome };

type QuickJSPackage = {
  newQuickJSWASMModule(variant: unknown): Promise<QuickJSWASMModule>;
  newVariant(base: unknown, options: { wasmMemory: WebAssembly.Memory; wasmModule?: WebAssembly.Module }): unknown;
  RELEASE_SYNC: unknown;
  /** The release-sync WASM, compiled once per worker, so a fresh module is only an instantiation. */
  wasmModule?: WebAssembly.Module;
};

export function workerMain(port: MessagePort, quickjs: QuickJSPackage, run: typeof runProgram, data: WorkerData): void {
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
  let nextCallId = 0;
  const waiting = new Map<number, { runId: number; resolve: (answer: string) => void }>();
  const warmLimits = {
    wallMs: 5000,
    memoryBytes: 16 * 1024 * 1024,
    maxStackBytes: 256 * 1024,
    maxToolCalls: 1,
    maxOutputBytes: 1024,
  };

  const execute = async (id: number, job: RunJob): Promise<RunOutcome> => {
    const QuickJS = await module;
    const outcome = await run(QuickJS, job, {
      callTool: (server, tool, args) =>
        new Promise<string>((resolve) => {
          const callId = ++nextCallId;
          waiting.set(callId, { runId: id, resolve });
          send({ type: "call", id, callId, server, tool, ...(args !== undefined && { args }) });
        }),
    });
    for (const [callId, entry] of waiting) if (entry.runId === id) waiting.delete(callId);
    runsOnModule++;
    const stopped = outcome.error?.name === "TimeoutError" || outcome.error?.name === "MemoryError";
    if (outcome.leaked === true || stopped || runsOnModule >= data.recycleAfterRuns) {
      runsOnModule = 0;
      module = freshModule();
    }
    return outcome;
  };

  port.on("message", (message: ToWorker) => {
    if (message.type === "answer") {
      const entry = waiting.get(message.callId);
      if (!entry) return;
      waiting.delete(message.callId);
      entry.resolve(message.answer);
      return;
    }
    execute(message.id, message.job).then(
      (outcome) => send({ type: "done", id: message.id, outcome }),
      (err: unknown) => {
        const text = err instanceof Error ? err.message : "the sandbox failed";
        send({
          type: "done",
          id: message.id,
          outcome: { error: { name: "SandboxError", message: text }, logs: [], toolCalls: 0, truncated: false },
        });
      },
    );
  });

  // Warm the module and the runner's code paths before taking work.
  module
    .then((QuickJS) =>
      run(
        QuickJS,
        { source: "(async () => 1)", limits: warmLimits },
        { callTool: () => Promise.resolve('{"ok":true}') },
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
    'const { parentPort, workerData } = require("node:worker_threads");',
    'const { createRequire } = require("node:module");',
    "let quickjs;",
    "try {",
    '  const fromApp = createRequire(require("node:path").join(workerData.moduleDir, "package.json"));',
    '  const fromQuickJS = createRequire(fromApp.resolve("quickjs-emscripten"));',
    '  const wasm = require("node:fs").readFileSync(fromQuickJS.resolve("@jitl/quickjs-wasmfile-release-sync/wasm"));',
    '  quickjs = Object.assign({}, fromApp("quickjs-emscripten"), { wasmModule: new WebAssembly.Module(wasm) });',
    '} catch (err) { parentPort.postMessage({ type: "fatal", message: "cannot load quickjs-emscripten from " + workerData.moduleDir + ": " + err.message }); }',
    `const runProgram = (${runProgram.toString()});`,
    "if (quickjs) {",
    `  try { (${workerMain.toString()})(parentPort, quickjs, runProgram, workerData); }`,
    '  catch (err) { parentPort.postMessage({ type: "fatal", message: "the sandbox worker failed to start: " + (err && err.message) }); }',
    "}",
  ].join("\n");
}
