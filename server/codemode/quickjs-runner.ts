// Runs one agent program in a fresh QuickJS runtime and context (sync WASM build), inside a worker thread.
//
// `runProgram` is serialized with Function.prototype.toString into the worker's source (see worker.ts), so it must
// stay self-contained: no imports at run time, no module-level helpers, no classes; only its parameters and
// standard globals. Only strings cross into and out of the VM: the program's source, tool arguments as JSON text
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

export type RunJob = {
  /** Source whose completion value is the program's async main function (see wrapProgram). */
  source: string;
  limits: ExecLimits;
  /** Added to the VM's own deadline; tests use it to leave the stop to the parent's hard timeout. */
  deadlineSlackMs?: number;
};

export type OutgoingCall = { callId: number; server: string; tool: string; argsJson?: string };

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

export function runProgram(QuickJS: QuickJSWASMModule, job: RunJob, host: RunHost): RunOutcome {
  // Evaluated first in every context; it receives the host functions as arguments (never as globals), installs
  // `tools` and `console`, and returns run(source). Errors are described inside the VM, so the host reads only
  // strings and never a guest object's getters.
  const BOOTSTRAP = `(function (hostLog, hostStarted, hostFinish) {
  "use strict";
  const indirectEval = eval;
  const stringify = JSON.stringify;
  const parse = JSON.parse;
  const toText = (v) => {
    if (typeof v === "string") return v;
    if (v === undefined) return "undefined";
    if (typeof v === "function") return "[Function" + (v.name ? ": " + v.name : "") + "]";
    if (typeof v === "bigint") return String(v) + "n";
    if (typeof v === "symbol") return v.toString();
    if (v instanceof Error) return String(v.name) + ": " + String(v.message);
    try { const s = stringify(v); return s === undefined ? String(v) : s; } catch (e) {
      try { return String(v); } catch (e2) { return "[unprintable]"; }
    }
  };
  const logger = (level) => function () {
    const parts = [];
    for (let i = 0; i < arguments.length; i++) parts.push(toText(arguments[i]));
    hostLog(level, parts.join(" "));
  };
  const console = Object.freeze({ log: logger("log"), info: logger("info"), warn: logger("warn"), error: logger("error"), debug: logger("debug") });
  const toolError = (e) => {
    const err = new Error(String(e && e.message));
    err.name = String(e && e.name);
    if (e && e.approvalId !== undefined) err.approvalId = String(e.approvalId);
    if (e && e.code !== undefined) err.code = String(e.code);
    return err;
  };
  const P = Promise;
  const waiting = new Map();
  const outbox = [];
  let lastCallId = 0;
  const settle = (answerJson, resolve, reject) => {
    const answer = parse(answerJson);
    if (answer.ok) resolve(answer.value);
    else reject(toolError(answer.error));
  };
  const invoke = (server, tool, args) => new P((resolve, reject) => {
    const argsJson = args === undefined ? null : stringify(args);
    const callId = ++lastCallId;
    waiting.set(callId, { resolve, reject });
    outbox.push(callId, server, tool, argsJson === undefined ? null : argsJson);
  });
  /** The calls queued since the last drain, flat: [callId, server, tool, argsJson | null, …] ("" for none). */
  const drain = () => {
    if (outbox.length === 0) return "";
    const text = stringify(outbox);
    outbox.length = 0;
    return text;
  };
  const deliver = (callId, answerJson) => {
    const entry = waiting.get(callId);
    if (entry === undefined) return;
    waiting.delete(callId);
    settle(answerJson, entry.resolve, entry.reject);
  };
  const notAName = (key) => typeof key !== "string" || key === "then" || key === "toJSON";
  // Made once per name and kept: a loop calling tools.a.b does not build two proxies and a closure each time.
  const cached = (map, key, make) => {
    let value = map.get(key);
    if (value === undefined) { value = make(); map.set(key, value); }
    return value;
  };
  const servers = new Map();
  const serverTools = (server) => {
    const fns = new Map();
    return new Proxy({}, {
      get: (_, tool) => notAName(tool) ? undefined : cached(fns, tool, () => (args) => invoke(server, tool, args)),
    });
  };
  const tools = new Proxy({}, { get: (_, server) => notAName(server) ? undefined : cached(servers, server, () => serverTools(server)) });
  Object.defineProperty(globalThis, "tools", { value: tools });
  Object.defineProperty(globalThis, "console", { value: console, writable: true, configurable: true });
  const describe = (e) => {
    try {
      if (e !== null && (typeof e === "object" || typeof e === "function")) {
        const out = { name: String(e.name === undefined ? "Error" : e.name), message: e.message === undefined ? toText(e) : String(e.message) };
        if (e.approvalId !== undefined) out.approvalId = String(e.approvalId);
        return stringify(out);
      }
      return stringify({ name: "Error", message: toText(e) });
    } catch (err) {
      return '{"name":"Error","message":"the program threw a value that cannot be described"}';
    }
  };
  const run = (source) => {
    let main;
    try { main = indirectEval(source); } catch (e) { hostFinish("error", describe(e)); return; }
    hostStarted();
    main().then((value) => {
      let json;
      try { json = stringify(value); } catch (e) {
        hostFinish("error", stringify({ name: "SerializationError", message: "the returned value is not JSON: " + String(e && e.message) }));
        return;
      }
      hostFinish("ok", json);
    }, (e) => hostFinish("error", describe(e)));
  };
  return { run, deliver, drain };
})`;

  const MAX_ARGS_CHARS = 1024 * 1024;
  const { limits } = job;
  const clock = () => performance.timeOrigin + performance.now();
  const deadline = performance.now() + limits.wallMs + (job.deadlineSlackMs ?? 0);
  const maxOut = limits.maxOutputBytes;
  // The module's linear memory only grows: growth past memoryBytes within this run is this run's doing.
  const memory = QuickJS.getWasmMemory();
  const memoryCeiling = memory.buffer.byteLength + limits.memoryBytes;
  const outcome: RunOutcome = { logs: [], toolCalls: 0, truncated: false };
  // workspace.* and skills.* (the reserved "$" servers of prelude-servers.ts) are not tool calls: bounded apart.
  let workspaceOps = 0;
  let logBytes = 0;
  let droppedLogBytes = 0;
  let timedOut = false;
  let memoryExceeded = false;
  let finished = false;
  let vmFailure: ExecError | undefined;

  const byteLength = (s: string) => Buffer.byteLength(s, "utf8");
  const cutUtf8 = (s: string, max: number) => {
    const bytes = Buffer.from(s, "utf8");
    let end = Math.min(max, bytes.length);
    while (end > 0 && end < bytes.length && ((bytes[end] ?? 0) & 0xc0) === 0x80) end--;
    return bytes.subarray(0, end).toString("utf8");
  };
  const marker = (n: number) => `…[truncated ${String(n)} bytes]`;
  const mib = (n: number) => `${String(Math.round((n / 1024 / 1024) * 10) / 10)} MiB`;
  const kib = (n: number) => `${String(Math.round(n / 1024))} KiB`;
  const named = (e: ExecError): ExecError => {
    if (timedOut) return { name: "TimeoutError", message: `the program ran longer than ${String(limits.wallMs)} ms` };
    const text = `${e.name}: ${e.message}`;
    if (memoryExceeded || memory.buffer.byteLength > memoryCeiling || /out of memory/i.test(text))
      return { name: "MemoryError", message: `the program used more than ${mib(limits.memoryBytes)} of memory` };
    if (/stack overflow|call stack size/i.test(text)) {
      return {
        name: "StackOverflowError",
        message: `the program exceeded its ${kib(limits.maxStackBytes)} stack (recursion too deep)`,
      };
    }
    return e;
  };
  const finish = (patch: Partial<RunOutcome>) => {
    if (finished) return;
    finished = true;
    Object.assign(outcome, patch);
  };
  const fail = (e: ExecError) => finish({ error: named(e) });
  const hostFault = (err: unknown): ExecError => {
    const message = err instanceof Error ? err.message : typeof err === "string" ? err : "unknown failure";
    return { name: "SandboxError", message };
  };

  const runtime = QuickJS.newRuntime();
  runtime.setMemoryLimit(limits.memoryBytes);
  runtime.setMaxStackSize(limits.maxStackBytes);
  runtime.setInterruptHandler(() => {
    if (memory.buffer.byteLength > memoryCeiling) memoryExceeded = true;
    else if (performance.now() > deadline) timedOut = true;
    return memoryExceeded || timedOut;
  });
  const context = runtime.newContext();
  const inFlight = new Set<number>();
  const handles: QuickJSHandle[] = [];
  const keep = (h: QuickJSHandle) => {
    handles.push(h);
    return h;
  };
  const stringArg = (h: QuickJSHandle | undefined) =>
    h !== undefined && context.typeof(h) === "string" ? context.getString(h) : undefined;

  /** Runs the VM's microtasks after a host event, and notices a VM that was stopped from inside. */
  const pump = () => {
    if (finished) return;
    const jobs = runtime.executePendingJobs();
    if (jobs.error) fail(takeError(jobs.error));
    if (timedOut || memoryExceeded) fail({ name: "InternalError", message: "interrupted" });
    else if (vmFailure) fail(vmFailure);
  };
  /**
   * Describes an error handle the VM returned, then frees it. Only for errors the VM could not describe itself
   * (interrupts, out of memory while describing).
   */
  const takeError = (h: QuickJSHandle): ExecError => {
    try {
      if (timedOut || memoryExceeded) return { name: "InternalError", message: "interrupted" };
      const dumped: unknown = context.dump(h);
      if (dumped && typeof dumped === "object") {
        const d = dumped as { name?: unknown; message?: unknown };
        return {
          name: typeof d.name === "string" ? d.name : "Error",
          message: typeof d.message === "string" ? d.message : "",
        };
      }
      return { name: "Error", message: typeof dumped === "string" ? dumped : "the program failed" };
    } catch {
      return { name: "Error", message: "the program failed" };
    } finally {
      if (h.alive) h.dispose();
    }
  };

  /**
   * Takes the VM's outbox and sends its calls out; a call past maxToolCalls or with too much argument text is
   * answered here with a refusal (returned, to be delivered) and never leaves.
   */
  const flush = (drain: QuickJSHandle): { callId: number; answer: string }[] => {
    const refusals: { callId: number; answer: string }[] = [];
    if (finished) return refusals;
    const drained = context.callFunction(drain, context.undefined);
    if (drained.error) {
      fail(takeError(drained.error));
      return refusals;
    }
    const text = context.getString(drained.value);
    drained.value.dispose();
    if (text === "") return refusals;
    const flat: unknown = JSON.parse(text);
    if (!Array.isArray(flat)) return refusals;
    const calls: OutgoingCall[] = [];
    const refuse = (callId: number, name: string, message: string) =>
      refusals.push({ callId, answer: JSON.stringify({ ok: false, error: { name, message } }) });
    for (let i = 0; i + 3 < flat.length; i += 4) {
      const [callId, server, tool, argsJson] = flat.slice(i, i + 4) as unknown[];
      if (typeof callId !== "number" || typeof server !== "string" || typeof tool !== "string") continue;
      inFlight.add(callId);
      const workspaceOp = server.startsWith("$");
      if ((workspaceOp ? workspaceOps : outcome.toolCalls) >= limits.maxToolCalls) {
        refuse(callId, "ToolCallLimitError", `the program made more than ${String(limits.maxToolCalls)} ${workspaceOp ? "workspace operations" : "tool calls"}`);
        continue;
      }
      // Arguments are parsed on the gateway's event loop: a bound keeps a program from stalling it that way.
      if (typeof argsJson === "string" && argsJson.length > MAX_ARGS_CHARS) {
        refuse(
          callId,
          "ToolArgumentsTooLarge",
          `tools.${server}.${tool} was given ${String(argsJson.length)} characters of arguments (at most ${String(MAX_ARGS_CHARS)})`,
        );
        continue;
      }
      if (workspaceOp) workspaceOps++;
      else outcome.toolCalls++;
      calls.push({ callId, server, tool, ...(typeof argsJson === "string" && { argsJson }) });
    }
    if (calls.length > 0) host.send(calls);
    return refusals;
  };
  const hostLog = keep(
    context.newFunction("log", (levelH, textH) => {
      const level = stringArg(levelH) ?? "log";
      const text = stringArg(textH) ?? "";
      const line = level === "warn" || level === "error" ? `[${level}] ${text}` : text;
      const size = byteLength(line);
      const room = maxOut - logBytes;
      if (droppedLogBytes > 0 || size > room) {
        if (droppedLogBytes === 0 && room > 0) {
          const head = cutUtf8(line, room);
          outcome.logs.push(head);
          logBytes += byteLength(head);
          droppedLogBytes += size - byteLength(head);
        } else droppedLogBytes += size;
        outcome.truncated = true;
        return;
      }
      outcome.logs.push(line);
      logBytes += size;
    }),
  );
  const hostStarted = keep(
    context.newFunction("started", () => {
      outcome.startedAt = clock();
    }),
  );
  const hostFinish = keep(
    context.newFunction("finish", (kindH, jsonH) => {
      const kind = stringArg(kindH);
      const json = stringArg(jsonH);
      if (kind === "error") {
        let error: ExecError = { name: "Error", message: "the program failed" };
        try {
          const parsed = JSON.parse(json ?? "null") as {
            name?: unknown;
            message?: unknown;
            approvalId?: unknown;
          } | null;
          if (parsed && typeof parsed.name === "string" && typeof parsed.message === "string") {
            error = { name: parsed.name, message: parsed.message };
            if (typeof parsed.approvalId === "string") error.approvalId = parsed.approvalId;
          }
        } catch {
          // keep the generic error
        }
        fail(error);
        return;
      }
      if (json === undefined) {
        finish({});
        return;
      }
      const size = byteLength(json);
      if (size <= maxOut) finish({ resultJson: json });
      else {
        const head = cutUtf8(json, maxOut);
        finish({ resultCut: head + marker(size - byteLength(head)), truncated: true });
      }
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

  try {
    const boot = context.evalCode(BOOTSTRAP, "portcullis-bootstrap.js");
    if (boot.error) {
      const e = takeError(boot.error);
      throw new Error(`bootstrap failed: ${e.name}: ${e.message}`);
    }
    const factory = keep(boot.value);
    const made = context.callFunction(factory, context.undefined, hostLog, hostStarted, hostFinish);
    if (made.error) {
      const e = takeError(made.error);
      throw new Error(`bootstrap failed: ${e.name}: ${e.message}`);
    }
    const api = keep(made.value);
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
    fail(timedOut || memoryExceeded ? { name: "InternalError", message: "interrupted" } : hostFault(err));
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
  if (droppedLogBytes > 0) outcome.logs.push(marker(droppedLogBytes));
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
