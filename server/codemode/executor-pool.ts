// The Executor on a pre-warmed pool of worker threads, one program per worker at a time, so a CPU-heavy program
// never stalls the gateway's event loop. Tool calls travel worker → parent → ToolBridge → worker as JSON text.
// The VM stops itself at wallMs (interrupt handler); a worker that does not answer by wallMs + graceMs is
// terminated and replaced.
import { Worker } from "node:worker_threads";
import {
  DEFAULT_EXEC_LIMITS,
  resolveLimits,
  type ExecError,
  type ExecLimits,
  type ExecOptions,
  type ExecResult,
  type Executor,
  type ToolBridge,
} from "./executor";
import { isPreludeServer } from "./prelude-servers";
import { programSource } from "./program-source";
import type { OutgoingCall, RunOutcome } from "./quickjs-runner";
import { errorResult, runResult } from "./run-result";
import { bridgeAnswer } from "./bridge-answer";
import { workerSource, type FromWorker, type ToWorker, type WorkerData } from "./worker";

export type ExecutorPoolOptions = {
  /** Worker threads (default 2, at least 1). */
  size?: number;
  /** Defaults of every run; execute() may override each. */
  limits?: Partial<ExecLimits>;
  /** How long past wallMs the parent waits before it terminates a worker (default 1000 ms). */
  graceMs?: number;
  /** Directory whose node_modules holds quickjs-emscripten and esbuild (default process.cwd()). */
  moduleDir?: string;
  /** V8 heap of each worker's own JavaScript (the VM's heap is bounded by memoryBytes). */
  workerHeapMb?: number;
  /** A worker starts a fresh WASM module after this many runs (default 500). */
  recycleAfterRuns?: number;
  /** Tests only: added to the VM's own deadline so the parent's hard timeout is what stops the run. */
  vmDeadlineSlackMs?: number;
  /**
   * Programs that may wait for a worker (default 16 per worker). One more is answered at once with a
   * SandboxBusyError instead of waiting behind minutes of queued work.
   */
  maxQueue?: number;
};

export type ExecutorPoolStats = { size: number; busy: number; queued: number; runs: number; workersReplaced: number };

export type ExecutorPool = Executor & {
  /** Resolves once every worker has loaded and warmed its WASM module, or the pool was closed meanwhile. */
  ready(): Promise<void>;
  stats(): ExecutorPoolStats;
};

type Job = {
  id: number;
  source: string;
  limits: ExecLimits;
  bridge: ToolBridge;
  startedAt: number;
  toolCalls: number;
  workspaceOps: number;
  approvalIds: Set<string>;
  finish: (result: ExecResult) => void;
  hardTimer?: ReturnType<typeof setTimeout>;
};

type Slot = { worker: Worker; ready: boolean; job?: Job; warmed: Promise<void>; doorbell: Int32Array };

const now = () => performance.timeOrigin + performance.now();

export function createExecutorPool(options: ExecutorPoolOptions = {}): ExecutorPool {
  const size = Math.max(1, Math.floor(options.size ?? 2));
  const baseLimits = resolveLimits(DEFAULT_EXEC_LIMITS, options.limits);
  const graceMs = options.graceMs ?? 1000;
  const maxQueue = Math.max(0, Math.floor(options.maxQueue ?? size * 16));
  const moduleDir = options.moduleDir ?? process.cwd();
  // The WASM module starts with 16 MiB (its stack and static data included); a run may grow it by memoryBytes
  // (checked by the interrupt handler), and 32 MiB more is headroom for one large allocation past that check.
  const wasmMemoryBytes = (16 + 32) * 1024 * 1024 + baseLimits.memoryBytes;
  const data: Omit<WorkerData, "doorbell"> = {
    moduleDir,
    recycleAfterRuns: Math.max(1, options.recycleAfterRuns ?? 500),
    wasmMemoryBytes,
  };
  const source = workerSource();
  const prepare = programSource(moduleDir);
  const slots: Slot[] = [];
  const queue: Job[] = [];
  let nextJobId = 0;
  let runs = 0;
  let workersReplaced = 0;
  let closed = false;
  let startFailure: string | undefined;
  let restartDelayMs = 1000;
  let readyWaiters = 0;

  function spawn(): Slot {
    const doorbell = new SharedArrayBuffer(4);
    const worker = new Worker(source, {
      eval: true,
      workerData: { ...data, doorbell } satisfies WorkerData,
      resourceLimits: { maxOldGenerationSizeMb: options.workerHeapMb ?? 256 },
      stdout: false,
      stderr: false,
    });
    worker.unref();
    let markReady = () => {};
    let markFailed = (_err: Error) => {};
    const warmed = new Promise<void>((resolve, reject) => {
      markReady = resolve;
      markFailed = reject;
    });
    warmed.catch(() => {}); // observed through ready() and startFailure
    const slot: Slot = { worker, ready: false, warmed, doorbell: new Int32Array(doorbell) };
    worker.on("message", (message: FromWorker) => {
      switch (message.type) {
        case "ready":
          slot.ready = true;
          startFailure = undefined;
          restartDelayMs = 1000;
          markReady();
          dispatch();
          return;
        case "fatal":
          failedStart(message.message);
          return;
        case "calls":
          for (const call of message.calls) onCall(slot, message.id, call);
          return;
        case "done":
          onDone(slot, message.id, message.outcome);
          return;
      }
    });
    /** A worker that cannot start would fail again at once: retry later, with backoff. */
    const failedStart = (reason: string) => {
      startFailure = reason;
      markFailed(new Error(reason));
      replace(slot, { name: "SandboxError", message: `the sandbox could not start: ${reason}` }, restartDelayMs);
      restartDelayMs = Math.min(restartDelayMs * 2, 60_000);
    };
    worker.on("error", (err: Error & { code?: string }) => {
      if (!slot.ready) {
        failedStart(err.message);
        return;
      }
      const error: ExecError =
        err.code === "ERR_WORKER_OUT_OF_MEMORY"
          ? { name: "MemoryError", message: "the program's sandbox ran out of memory" }
          : { name: "SandboxError", message: "the program's sandbox failed" };
      markFailed(err);
      replace(slot, error);
    });
    worker.on("exit", () => {
      markFailed(new Error("the sandbox worker exited"));
      replace(slot, { name: "SandboxError", message: "the program's sandbox stopped unexpectedly" });
    });
    return slot;
  }

  /** Ends a worker (if it still runs) and its job, and puts a new worker in its place. */
  function replace(slot: Slot, error: ExecError, delayMs = 0): void {
    const index = slots.indexOf(slot);
    if (index < 0) return;
    const job = slot.job;
    slot.job = undefined;
    if (job) {
      clearTimeout(job.hardTimer);
      job.finish(errorResult(job, closed ? { name: "SandboxError", message: "the code sandbox was closed" } : error));
    }
    void slot.worker.terminate();
    if (closed) {
      slots.splice(index, 1);
      return;
    }
    workersReplaced++;
    if (delayMs > 0) {
      // A worker that cannot start would fail again at once: fail waiting jobs, retry a little later.
      for (const waiting of queue.splice(0)) waiting.finish(errorResult(waiting, error));
      slots.splice(index, 1);
      setTimeout(() => {
        if (!closed) slots.push(spawn());
      }, delayMs).unref();
      return;
    }
    slots[index] = spawn();
    updateRefs();
  }

  /** Workers keep the process alive only while there is work (an idle pool never holds a script open). */
  function updateRefs(): void {
    const working = readyWaiters > 0 || queue.length > 0 || slots.some((s) => s.job);
    for (const slot of slots) {
      if (working) slot.worker.ref();
      else slot.worker.unref();
    }
  }

  function dispatch(): void {
    try {
      assign();
    } finally {
      updateRefs();
    }
  }

  function assign(): void {
    for (const slot of slots) {
      if (!slot.ready || slot.job) continue;
      const job = queue.shift();
      if (!job) return;
      slot.job = job;
      job.hardTimer = setTimeout(() => {
        if (slot.job !== job) return;
        replace(slot, {
          name: "TimeoutError",
          message: `the program ran longer than ${String(job.limits.wallMs)} ms (its sandbox was stopped)`,
        });
      }, job.limits.wallMs + graceMs);
      const message: ToWorker = {
        type: "run",
        id: job.id,
        job: {
          source: job.source,
          limits: job.limits,
          ...(options.vmDeadlineSlackMs !== undefined && { deadlineSlackMs: options.vmDeadlineSlackMs }),
        },
      };
      slot.worker.postMessage(message);
    }
  }

  function onCall(slot: Slot, runId: number, message: OutgoingCall): void {
    const job = slot.job;
    if (!job || job.id !== runId) return;
    if (isPreludeServer(message.server)) job.workspaceOps++;
    else job.toolCalls++;
    void bridgeAnswer(job.bridge, message, job.approvalIds).then((answer) => {
      if (slot.job !== job) return;
      const out: ToWorker = { type: "answer", id: runId, callId: message.callId, answer };
      slot.worker.postMessage(out);
      // The running program's worker sleeps on the doorbell, not in its event loop (worker.ts).
      Atomics.store(slot.doorbell, 0, 1);
      Atomics.notify(slot.doorbell, 0);
    });
  }

  function onDone(slot: Slot, id: number, outcome: RunOutcome): void {
    const job = slot.job;
    if (!job || job.id !== id) return;
    clearTimeout(job.hardTimer);
    slot.job = undefined;
    runs++;
    const result = runResult(job, outcome);
    job.finish(result);
    dispatch();
  }

  for (let i = 0; i < size; i++) slots.push(spawn());

  return {
    async execute(code: string, bridge: ToolBridge, opts: ExecOptions = {}): Promise<ExecResult> {
      const startedAt = now();
      // A run may lower the memory limit, not raise it past the module's linear-memory maximum.
      const limits = {
        ...resolveLimits(baseLimits, opts),
        memoryBytes: Math.min(baseLimits.memoryBytes, opts.memoryBytes ?? Infinity),
      };
      const stub = { startedAt, toolCalls: 0, workspaceOps: 0 };
      if (closed) return errorResult(stub, { name: "SandboxError", message: "the code sandbox is closed" });
      const prepared = await prepare(code, opts.language);
      if ("error" in prepared) return errorResult(stub, prepared.error);
      if (startFailure !== undefined && !slots.some((s) => s.ready)) {
        return errorResult(stub, { name: "SandboxError", message: `the sandbox could not start: ${startFailure}` });
      }
      const idle = slots.some((s) => s.ready && !s.job);
      if (!idle && queue.length >= maxQueue) {
        return errorResult(stub, {
          name: "SandboxBusyError",
          message: `all ${String(size)} sandbox workers are busy and ${String(queue.length)} programs are waiting; try again in a few seconds`,
        });
      }
      return new Promise<ExecResult>((resolve) => {
        queue.push({
          id: ++nextJobId,
          source: prepared.source,
          limits,
          bridge,
          startedAt,
          toolCalls: 0,
          workspaceOps: 0,
          approvalIds: new Set(),
          finish: resolve,
        });
        dispatch();
      });
    },
    async ready() {
      readyWaiters++;
      updateRefs();
      try {
        await Promise.all(slots.map((s) => s.warmed));
      } catch (err) {
        // Closed while warming (shutdown during start-up): its workers were ended on purpose, nothing failed.
        if (!closed) throw err;
      } finally {
        readyWaiters--;
        updateRefs();
      }
    },
    stats() {
      return {
        size: slots.length,
        busy: slots.filter((s) => s.job).length,
        queued: queue.length,
        runs,
        workersReplaced,
      };
    },
    async close() {
      if (closed) return;
      closed = true;
      for (const job of queue.splice(0))
        job.finish(errorResult(job, { name: "SandboxError", message: "the code sandbox was closed" }));
      await Promise.all(slots.map((slot) => slot.worker.terminate()));
    },
  };
}
