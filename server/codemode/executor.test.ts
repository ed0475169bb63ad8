// The code-mode sandbox against real worker threads and QuickJS: each abuse is contained and the pool keeps working.
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { createExecutorPool, type ExecutorPool } from "./executor-pool";
import type { BridgeAnswer, ToolBridge } from "./executor";

type Call = { server: string; tool: string; args: unknown };

function recordingBridge(
  answer: (call: Call) => BridgeAnswer | Promise<BridgeAnswer> = (c) => ({ ok: true, value: c }),
) {
  const calls: Call[] = [];
  const bridge: ToolBridge = {
    call: async (server, tool, args) => {
      const call = { server, tool, args };
      calls.push(call);
      return answer(call);
    },
  };
  return { bridge, calls };
}

const echo = recordingBridge().bridge;

const STANDARD_GLOBALS = new Set(
  "Object Function Array Number parseFloat parseInt Infinity NaN undefined Boolean String Symbol Date Promise RegExp Error AggregateError EvalError RangeError ReferenceError SyntaxError TypeError URIError InternalError globalThis JSON Math Reflect ArrayBuffer SharedArrayBuffer Atomics Uint8Array Int8Array Uint8ClampedArray Int16Array Uint16Array Int32Array Uint32Array Float16Array Float32Array Float64Array BigInt64Array BigUint64Array BigInt DataView Map Set WeakMap WeakSet WeakRef FinalizationRegistry Proxy Iterator decodeURI decodeURIComponent encodeURI encodeURIComponent escape unescape eval isFinite isNaN".split(
    " ",
  ),
);

describe("code mode executor (QuickJS in worker threads)", () => {
  let pool: ExecutorPool;

  beforeAll(async () => {
    pool = createExecutorPool({ size: 2 });
    await pool.ready();
  });
  afterAll(async () => {
    await pool.close();
  });

  /** After each abuse the pool still runs a normal program. */
  async function expectHealthy(p: ExecutorPool = pool) {
    const run = await p.execute("return 1 + 1", echo);
    expect(run).toMatchObject({ result: 2, logs: [], truncated: false });
    expect(run.error).toBeUndefined();
  }

  it("returns the program's value as JSON, captures console and counts tool calls", async () => {
    const { bridge, calls } = recordingBridge((c) => ({ ok: true, value: { echoed: c.args } }));
    const run = await pool.execute(
      `console.log("start", { n: 1 }, [2], null, undefined);
       console.info("info"); console.warn("careful"); console.error(new TypeError("oops"));
       const r = await tools.files.read_file({ path: "/a" });
       return { r, when: "done" };`,
      bridge,
    );
    expect(run.error).toBeUndefined();
    expect(run.result).toEqual({ r: { echoed: { path: "/a" } }, when: "done" });
    expect(run.logs).toEqual(['start {"n":1} [2] null undefined', "info", "[warn] careful", "[error] TypeError: oops"]);
    expect(run.toolCalls).toBe(1);
    expect(calls).toEqual([{ server: "files", tool: "read_file", args: { path: "/a" } }]);
    expect(run.durationMs).toBeGreaterThan(0);
    expect(run.startupMs).toBeGreaterThanOrEqual(0);
    expect(run.startupMs).toBeLessThanOrEqual(run.durationMs);
  });

  it("returns no result for undefined and names servers with dashes by index", async () => {
    const { bridge, calls } = recordingBridge();
    const run = await pool.execute(`await tools["my-server"].do_it(); const t = tools.a; return typeof t.then`, bridge);
    expect(run.result).toBe("undefined");
    expect(calls).toEqual([{ server: "my-server", tool: "do_it", args: undefined }]);
    const none = await pool.execute("const x = 1;", echo);
    expect("result" in none).toBe(false);
    expect(none.error).toBeUndefined();
  });

  it("strips TypeScript types (language ts and detected)", async () => {
    const program = `interface Row { id: number; name: string }
      const rows: Row[] = [{ id: 1, name: "a" }];
      function first<T>(xs: T[]): T | undefined { return xs[0]; }
      return first(rows)!.name as string;`;
    expect((await pool.execute(program, echo, { language: "ts" })).result).toBe("a");
    expect((await pool.execute(program, echo)).result).toBe("a");
    const js = await pool.execute(program, echo, { language: "js" });
    expect(js.error?.name).toBe("SyntaxError");
    const bad = await pool.execute("const x: = 1", echo, { language: "ts" });
    expect(bad.error?.name).toBe("SyntaxError");
    expect(bad.error?.message).toMatch(/line 1/);
  });

  it("reports thrown errors as values without host stack traces", async () => {
    const typed = await pool.execute(`throw new TypeError("bad input")`, echo);
    expect(typed.error).toEqual({ name: "TypeError", message: "bad input" });
    const thrownString = await pool.execute(`throw "plain"`, echo);
    expect(thrownString.error).toEqual({ name: "Error", message: "plain" });
    const syntax = await pool.execute(`return (`, echo, { language: "js" });
    expect(syntax.error?.name).toBe("SyntaxError");
    const unserializable = await pool.execute(`return 10n`, echo);
    expect(unserializable.error?.name).toBe("SerializationError");
    const hostile = await pool.execute(`throw { get name() { throw new Error("x") } }`, echo);
    expect(hostile.error?.name).toBe("Error");
    for (const run of [typed, thrownString, syntax])
      expect(JSON.stringify(run)).not.toMatch(/node_modules|\.ts:|worker_threads/);
    await expectHealthy();
  });

  it("offers only standard builtins, tools and console: no process, require, import, timers or host objects", async () => {
    const run = await pool.execute(
      `const g = Function("return this")();
       let imported;
       try { await import("fs"); imported = "loaded"; } catch (e) { imported = e.name; }
       return {
         names: Object.getOwnPropertyNames(globalThis),
         sameGlobal: g === globalThis && (0, eval)("this") === globalThis,
         kinds: [typeof process, typeof require, typeof module, typeof setTimeout, typeof setInterval, typeof fetch,
                 typeof Buffer, typeof WebAssembly, typeof std, typeof os, typeof g.process, eval("typeof process")],
         imported,
         ctorEscape: await (async () => {}).constructor("return typeof process")(),
       };`,
      echo,
    );
    expect(run.error).toBeUndefined();
    const value = run.result as { names: string[]; sameGlobal: boolean; kinds: string[]; imported: string };
    const extra = value.names.filter((n) => !STANDARD_GLOBALS.has(n));
    expect(extra.sort()).toEqual(["console", "tools"]);
    expect(value.sameGlobal).toBe(true);
    expect(new Set(value.kinds)).toEqual(new Set(["undefined"]));
    expect(value.imported).not.toBe("loaded");
    expect(run.result).toMatchObject({ ctorEscape: "undefined" });
    const required = await pool.execute(`return require("fs")`, echo);
    expect(required.error).toMatchObject({ name: "ReferenceError" });
    await expectHealthy();
  });

  it("keeps prototype pollution inside the VM, in results and in tool arguments", async () => {
    const { bridge, calls } = recordingBridge();
    const run = await pool.execute(
      `Object.prototype.polluted = "yes";
       Array.prototype.polluted = "yes";
       await tools.db.query(JSON.parse('{"__proto__": {"polluted": "args"}, "sql": "select 1"}'));
       return JSON.parse('{"__proto__": {"polluted": "result"}, "ok": true}');`,
      bridge,
    );
    expect(run.error).toBeUndefined();
    const result = run.result as Record<string, unknown>;
    expect(Object.getPrototypeOf(result)).toBe(Object.prototype);
    expect(Object.keys(result)).toEqual(["ok"]);
    expect(result.polluted).toBeUndefined();
    const args = calls[0]?.args as Record<string, unknown>;
    expect(Object.getPrototypeOf(args)).toBe(Object.prototype);
    expect(Object.keys(args)).toEqual(["sql"]);
    expect(Object.assign({}, result, args)).toEqual({ ok: true, sql: "select 1" });
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(([] as unknown as Record<string, unknown>).polluted).toBeUndefined();
    // …and in the VM of the next runs (both workers)
    for (let i = 0; i < 4; i++) expect((await pool.execute(`return ({}).polluted ?? null`, echo)).result).toBeNull();
  });

  it("isolates runs: a global set in one run is absent in the next on the same worker", async () => {
    const single = createExecutorPool({ size: 1 });
    try {
      const first = await single.execute(
        `globalThis.leak = 42; var hoisted = 1; Math.leaked = 1; return typeof leak`,
        echo,
      );
      expect(first.result).toBe("number");
      const second = await single.execute(`return [typeof leak, typeof hoisted, typeof Math.leaked]`, echo);
      expect(second.result).toEqual(["undefined", "undefined", "undefined"]);
    } finally {
      await single.close();
    }
  });

  it("ends an infinite loop at wallMs (within 100 ms of a 300 ms limit), even one that catches", async () => {
    for (const program of [`while (true) {}`, `for (;;) { try { while (true) {} } catch (e) {} }`]) {
      const t0 = performance.now();
      const run = await pool.execute(program, echo, { wallMs: 300 });
      const elapsed = performance.now() - t0;
      expect(run.error).toEqual({ name: "TimeoutError", message: "the program ran longer than 300 ms" });
      expect(elapsed).toBeGreaterThanOrEqual(300);
      expect(elapsed).toBeLessThan(400);
    }
    await expectHealthy();
  });

  it("does not stall the parent's event loop while a program burns CPU", async () => {
    let settled = false;
    const running = pool.execute(`let x = 0; while (true) x++;`, echo, { wallMs: 300 });
    void running.then(() => (settled = true));
    // The program burns CPU in a worker thread: the parent's loop keeps turning while it runs (no timing window:
    // were the program on this thread, these turns could only come after it ended).
    for (let turn = 0; turn < 20; turn++) await new Promise((r) => setImmediate(r));
    expect(settled).toBe(false);
    const run = await running;
    expect(run.error?.name).toBe("TimeoutError");
  });

  it("ends a never-settling promise and a tool call that never answers at wallMs", async () => {
    const t0 = performance.now();
    const stuck = await pool.execute(`await new Promise(() => {}); return 1`, echo, { wallMs: 300 });
    expect(stuck.error?.name).toBe("TimeoutError");
    expect(performance.now() - t0).toBeLessThan(400);
    const never: ToolBridge = { call: () => new Promise<BridgeAnswer>(() => {}) };
    const hung = await pool.execute(`return await tools.slow.op({})`, never, { wallMs: 300 });
    expect(hung.error?.name).toBe("TimeoutError");
    expect(hung.toolCalls).toBe(1);
    await expectHealthy();
  });

  it("ends memory bombs with MemoryError (objects, buffers, one huge string)", { timeout: 20_000 }, async () => {
    const bombs = [
      `const keep = []; while (true) keep.push({ n: keep.length, tag: "t" + keep.length });`,
      `const keep = []; while (true) keep.push(new Uint8Array(1 << 20));`,
      `const keep = []; while (true) keep.push(new Array(100000).fill(keep.length));`,
    ];
    for (const bomb of bombs) {
      const run = await pool.execute(bomb, echo);
      expect(run.error).toEqual({ name: "MemoryError", message: "the program used more than 64 MiB of memory" });
    }
    const big = await pool.execute(`return "y".repeat(200 * 1024 * 1024).length`, echo, {
      memoryBytes: 8 * 1024 * 1024,
    });
    expect(big.error?.name).toBe("MemoryError");
    const caught = await pool.execute(`try { new ArrayBuffer(2 ** 31) } catch (e) { return e.message }`, echo);
    expect(caught.result).toMatch(/out of memory|invalid array buffer length/);
    await expectHealthy();
  });

  it("ends deep recursion with StackOverflowError", async () => {
    const run = await pool.execute(`function down(n) { return down(n + 1) + 1; } return down(0);`, echo);
    expect(run.error?.name).toBe("StackOverflowError");
    expect(run.error?.message).toMatch(/512 KiB/);
    await expectHealthy();
  });

  it("cuts a huge result and huge logs to maxOutputBytes with a marker", async () => {
    const run = await pool.execute(`return "x".repeat(1_000_000)`, echo);
    expect(run.truncated).toBe(true);
    const text = run.result as string;
    expect(typeof text).toBe("string");
    const marker = `…[truncated ${String(1_000_002 - 20 * 1024)} bytes]`;
    expect(text.endsWith(marker)).toBe(true);
    expect(Buffer.byteLength(text)).toBe(20 * 1024 + Buffer.byteLength(marker));

    const logs = await pool.execute(`for (let i = 0; i < 1000; i++) console.log("é".repeat(500)); return "ok"`, echo);
    expect(logs.result).toBe("ok");
    expect(logs.truncated).toBe(true);
    const last = logs.logs.at(-1) ?? "";
    expect(last).toMatch(/^…\[truncated \d+ bytes\]$/);
    const kept = logs.logs.slice(0, -1).reduce((n, line) => n + Buffer.byteLength(line), 0);
    expect(kept).toBeLessThanOrEqual(20 * 1024);
    expect(kept + Number(/\d+/.exec(last)?.[0])).toBe(1000 * 1000);

    const small = await pool.execute(`console.log("fine"); return { a: "b" }`, echo, { maxOutputBytes: 1024 });
    expect(small).toMatchObject({ truncated: false, result: { a: "b" }, logs: ["fine"] });
    await expectHealthy();
  });

  it("stops at maxToolCalls: the 101st call rejects with ToolCallLimitError", async () => {
    const { bridge, calls } = recordingBridge();
    const run = await pool.execute(`for (let i = 0; i < 5000; i++) await tools.api.ping({ i });`, bridge);
    expect(run.error?.name).toBe("ToolCallLimitError");
    expect(run.error?.message).toMatch(/more than 100 tool calls/);
    expect(run.toolCalls).toBe(100);
    expect(calls).toHaveLength(100);

    const parallel = recordingBridge();
    const burst = await pool.execute(
      `const r = await Promise.allSettled(Array.from({ length: 3000 }, (_, i) => tools.api.ping({ i })));
       return [r.filter((x) => x.status === "fulfilled").length, r.find((x) => x.status === "rejected").reason.name];`,
      parallel.bridge,
      { maxToolCalls: 20 },
    );
    expect(burst.result).toEqual([20, "ToolCallLimitError"]);
    expect(parallel.calls).toHaveLength(20);

    const huge = await pool.execute(
      `try { await tools.a.b({ blob: "x".repeat(2_000_000) }) } catch (e) { return e.name }`,
      parallel.bridge,
    );
    expect(huge.result).toBe("ToolArgumentsTooLarge");
    expect(huge.toolCalls).toBe(0);
    await expectHealthy();
  });

  it("counts workspace operations apart from tool calls, each bounded by maxToolCalls on its own", async () => {
    const { bridge, calls } = recordingBridge();
    const run = await pool.execute(
      `await tools.api.ping({}); await tools.api.ping({}); await tools["$workspace"].set({ key: "k", value: 1 });
       await tools["$skills"].list({}); await tools.api.ping({});
       try { await tools["$workspace"].get({ key: "k" }); } catch (e) { return e.message; }
       return "all ran";`,
      bridge,
      { maxToolCalls: 3 },
    );
    expect(run.result).toBe("all ran");
    expect({ toolCalls: run.toolCalls, workspaceOps: run.workspaceOps }).toEqual({ toolCalls: 3, workspaceOps: 3 });
    expect(calls).toHaveLength(6);

    const many = await pool.execute(`for (let i = 0; i < 10; i++) await tools["$workspace"].get({ key: "k" });`, bridge, { maxToolCalls: 3 });
    expect(many.error?.message).toMatch(/more than 3 workspace operations/);
    expect({ toolCalls: many.toolCalls, workspaceOps: many.workspaceOps }).toEqual({ toolCalls: 0, workspaceOps: 3 });
  });

  it("rejects with ApprovalRequired carrying approvalId; a program may catch it and return it", async () => {
    const approval: BridgeAnswer = {
      ok: false,
      error: { name: "ApprovalRequired", code: "approval_required", approvalId: "apr_123", message: "needs a person" },
    };
    const { bridge } = recordingBridge(() => approval);
    const uncaught = await pool.execute(`await tools.db.drop_table({ name: "t" })`, bridge);
    expect(uncaught.error).toEqual({ name: "ApprovalRequired", message: "needs a person", approvalId: "apr_123" });
    const caught = await pool.execute(
      `try { await tools.db.drop_table({}); } catch (e) { return { name: e.name, id: e.approvalId, code: e.code, isError: e instanceof Error }; }`,
      bridge,
    );
    expect(caught.result).toEqual({
      name: "ApprovalRequired",
      id: "apr_123",
      code: "approval_required",
      isError: true,
    });
    // A program cannot mint an approval id the gateway did not issue in this run.
    const forged = await pool.execute(
      `const e = new Error("x"); e.name = "ApprovalRequired"; e.approvalId = "apr_forged"; throw e;`,
      echo,
    );
    expect(forged.error).toEqual({ name: "ApprovalRequired", message: "x" });
  });

  it("turns bridge failures into rejections the program can see", async () => {
    const failing: ToolBridge = { call: () => Promise.reject(new Error("upstream down")) };
    const run = await pool.execute(`try { await tools.a.b({}) } catch (e) { return [e.name, e.message] }`, failing);
    expect(run.result).toEqual(["ToolBridgeError", "upstream down"]);
    const cyclic: ToolBridge = {
      call: () => {
        const value: Record<string, unknown> = {};
        value.self = value;
        return Promise.resolve({ ok: true, value });
      },
    };
    expect((await pool.execute(`try { await tools.a.b() } catch (e) { return e.name }`, cyclic)).result).toBe(
      "SerializationError",
    );
  });

  it("runs ten tool calls through Promise.all in parallel: all ten are out before any answers", async () => {
    // A barrier, not a clock: no call is answered until all ten have reached the bridge, which only happens if the
    // program's calls leave together (made one after another, the first would wait forever: the run's wall limit).
    let arrived = 0;
    let release: () => void = () => undefined;
    const allOut = new Promise<void>((r) => (release = r));
    const { bridge } = recordingBridge(async (c) => {
      if (++arrived === 10) release();
      await allOut;
      return { ok: true, value: (c.args as { i: number }).i * 2 };
    });
    const run = await pool.execute(
      `return await Promise.all(Array.from({ length: 10 }, (_, i) => tools.slow.double({ i })))`,
      bridge,
      { wallMs: 10_000 },
    );
    expect(run.error).toBeUndefined();
    expect(run.result).toEqual([0, 2, 4, 6, 8, 10, 12, 14, 16, 18]);
    expect(run.toolCalls).toBe(10);
  });

  it("sends a call the program did not await with the next ones, and drops one still queued when the program ends", async () => {
    const sent = recordingBridge();
    const both = await pool.execute(`tools.log.write({ n: 1 }); return (await tools.log.write({ n: 2 })).args.n`, sent.bridge);
    expect(both.result).toBe(2);
    expect(sent.calls.map((c) => c.args)).toEqual([{ n: 1 }, { n: 2 }]);
    expect(both.toolCalls).toBe(2);

    // Calls leave the sandbox when the program waits; one it never waited for before returning never leaves.
    const dropped = recordingBridge();
    const run = await pool.execute(`tools.log.write({ n: 3 }); return "done"`, dropped.bridge);
    expect(run.result).toBe("done");
    expect(dropped.calls).toEqual([]);
    expect(run.toolCalls).toBe(0);
  });

  it("settles calls answered together in the order their answers came", async () => {
    // Ten calls answered at once by the bridge: each settles in the same VM step, so their then-callbacks all run
    // before the program's own continuation after Promise.all; the order of settling is the order of answers.
    const { bridge } = recordingBridge((c) => ({ ok: true, value: (c.args as { i: number }).i }));
    const run = await pool.execute(
      `const order = []; await Promise.all(Array.from({ length: 10 }, (_, i) => tools.t.n({ i }).then((v) => order.push(v)))); return order`,
      bridge,
    );
    expect(run.result).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
    expect(run.toolCalls).toBe(10);
  });
  it("runs more programs than workers by queueing, each in its own runtime", async () => {
    const runs = await Promise.all(
      Array.from({ length: 8 }, (_, i) =>
        pool.execute(`globalThis.n = (globalThis.n ?? 0) + 1; return [${String(i)}, n]`, echo),
      ),
    );
    expect(runs.map((r) => r.result)).toEqual(Array.from({ length: 8 }, (_, i) => [i, 1]));
  });

  it("answers SandboxBusyError at once when its queue is full, and runs what it queued", async () => {
    const small = createExecutorPool({ size: 1, maxQueue: 2 });
    try {
      await small.ready();
      let open = (_: BridgeAnswer) => {};
      const gate = new Promise<BridgeAnswer>((resolve) => (open = resolve));
      const held: ToolBridge = { call: () => gate };
      const running = small.execute(`return await tools.slow.op({})`, held, { language: "js" });
      await expect.poll(() => small.stats().busy).toBe(1);
      const queued = [small.execute(`return 1`, echo, { language: "js" }), small.execute(`return 2`, echo, { language: "js" })];
      await expect.poll(() => small.stats().queued).toBe(2);
      const t0 = performance.now();
      const refused = await small.execute(`return 3`, echo, { language: "js" });
      expect(performance.now() - t0).toBeLessThan(100);
      expect(refused.error?.name).toBe("SandboxBusyError");
      expect(refused.error?.message).toMatch(/1 sandbox workers are busy and 2 programs are waiting/);
      open({ ok: true, value: "done" });
      expect((await running).result).toBe("done");
      expect((await Promise.all(queued)).map((r) => r.result)).toEqual([1, 2]);
    } finally {
      await small.close();
    }
  });

  it("terminates and replaces a worker that does not answer by wallMs + grace", async () => {
    // The VM's own deadline is pushed far out, so only the parent's hard timeout can stop this loop.
    const stuck = createExecutorPool({ size: 1, graceMs: 200, vmDeadlineSlackMs: 60_000 });
    try {
      await stuck.ready();
      const t0 = performance.now();
      const run = await stuck.execute(`while (true) {}`, echo, { wallMs: 300 });
      const elapsed = performance.now() - t0;
      expect(run.error?.name).toBe("TimeoutError");
      expect(run.error?.message).toMatch(/stopped/);
      expect(elapsed).toBeGreaterThanOrEqual(500);
      expect(elapsed).toBeLessThan(700);
      expect(stuck.stats().workersReplaced).toBe(1);
      await expectHealthy(stuck);
    } finally {
      await stuck.close();
    }
  });

  it("reports a sandbox that cannot start as an error value, retrying with backoff rather than in a loop", async () => {
    // The retry waits on a timer: a fake one shows each wait exactly, and that nothing starts before it ends.
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] });
    const broken = createExecutorPool({ size: 1, moduleDir: tmpdir() });
    try {
      await expect(broken.ready()).rejects.toThrow(/quickjs-emscripten/);
      const run = await broken.execute("return 1", echo, { language: "js" });
      expect(run.error?.name).toBe("SandboxError");
      expect(run.error?.message).toMatch(/could not start/);
      // No worker in the slot: only the retry timer can start one, so there is no loop.
      expect(broken.stats()).toMatchObject({ size: 0, workersReplaced: 1 });
      for (const [attempt, waitMs] of [1000, 2000].entries()) {
        vi.advanceTimersByTime(waitMs - 1);
        expect(broken.stats().size).toBe(0);
        vi.advanceTimersByTime(1);
        expect(broken.stats().size).toBe(1);
        await expect(broken.ready()).rejects.toThrow(/quickjs-emscripten/);
        expect(broken.stats()).toMatchObject({ size: 0, workersReplaced: attempt + 2 });
      }
    } finally {
      vi.useRealTimers();
      await broken.close();
    }
  });

  it("answers a closed pool with an error value", async () => {
    const closing = createExecutorPool({ size: 1 });
    await closing.close();
    expect((await closing.execute("return 1", echo)).error?.name).toBe("SandboxError");
  });

  it("ready() ends quietly when the pool is closed while its workers warm (shutdown during start-up)", async () => {
    const warming = createExecutorPool({ size: 2 });
    const ready = warming.ready();
    await warming.close();
    await expect(ready).resolves.toBeUndefined();
  });

  it(
    "survives a minifying bundle (esbuild --minify --keep-names renames the helpers the worker source needs), every part of a run included",
    { timeout: 30_000 },
    async () => {
      const { build } = await import("esbuild");
      const dir = mkdtempSync(path.join(tmpdir(), "codemode-"));
      try {
        await build({
          entryPoints: [path.join(import.meta.dirname, "executor-pool.ts")],
          bundle: true,
          platform: "node",
          format: "esm",
          target: "node20",
          minify: true,
          keepNames: true,
          external: ["esbuild", "quickjs-emscripten"],
          outfile: path.join(dir, "pool.mjs"),
          logLevel: "silent",
        });
        writeFileSync(
          path.join(dir, "run.mjs"),
          `import { createExecutorPool } from "./pool.mjs";
        const pool = createExecutorPool({ size: 1, moduleDir: ${JSON.stringify(process.cwd())} });
        const run = await pool.execute("const n: number = await tools.a.b({}); return n + 1", { call: async () => ({ ok: true, value: 41 }) });
        const loop = await pool.execute("while (true) {}", { call: async () => ({ ok: true, value: 0 }) }, { wallMs: 200 });
        const bounded = await pool.execute('console.log("a".repeat(80)); console.warn("b"); await tools.a.b({}).catch((e) => console.log(e.name)); return "c".repeat(100)', { call: async () => ({ ok: true, value: 0 }) }, { maxOutputBytes: 64, maxToolCalls: 0 });
        const thrown = await pool.execute('throw new RangeError("no")', { call: async () => ({ ok: true, value: 0 }) });
        console.log(JSON.stringify([run.result, loop.error?.name, bounded.logs, bounded.result, bounded.truncated, thrown.error]));`,
        );
        const out = spawnSync(process.execPath, [path.join(dir, "run.mjs")], {
          cwd: dir,
          encoding: "utf8",
          timeout: 20_000,
        });
        expect(out.stderr).toBe("");
        // Every part of a run (run-parts.ts) works in the bundle: the bounded logs and result, the refused call, the thrown error.
        expect(JSON.parse(out.stdout)).toEqual([42, "TimeoutError", ["a".repeat(64), "…[truncated 42 bytes]"], `"${"c".repeat(63)}…[truncated 38 bytes]`, true, { name: "RangeError", message: "no" }]);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
  );

  it(
    "starts its workers from a plain `node --import tsx` script too (no pool.close: an idle pool lets it exit)",
    { timeout: 30_000 },
    () => {
      const dir = mkdtempSync(path.join(tmpdir(), "codemode-"));
      const script = path.join(dir, "run.mts");
      writeFileSync(
        script,
        `import { createExecutorPool } from ${JSON.stringify(path.join(import.meta.dirname, "executor-pool.ts"))};
      const pool = createExecutorPool({ size: 1 });
      const run = await pool.execute("const n: number = await tools.a.b({}); return n + 1", { call: async () => ({ ok: true, value: 41 }) }, { language: "ts" });
      console.log(JSON.stringify(run.result));`,
      );
      try {
        const out = spawnSync(process.execPath, ["--import", "tsx", script], {
          cwd: process.cwd(),
          encoding: "utf8",
          timeout: 20_000,
        });
        expect(out.stderr).toBe("");
        expect(out.stdout.trim()).toBe("42");
        expect(out.status).toBe(0);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
  );
});

describe("the worker's protocol", () => {
  it("drops an answer meant for an earlier run, though call ids start again in every run", async () => {
    const { Worker } = await import("node:worker_threads");
    const { workerSource } = await import("./worker");
    const { wrapProgram } = await import("./quickjs-runner");
    const doorbell = new SharedArrayBuffer(4);
    const bell = new Int32Array(doorbell);
    const worker = new Worker(workerSource(), { eval: true, workerData: { moduleDir: process.cwd(), recycleAfterRuns: 500, wasmMemoryBytes: 128 << 20, doorbell } });
    const messages: FromWorkerMessage[] = [];
    let waiter: (() => void) | undefined;
    worker.on("message", (m: FromWorkerMessage) => {
      messages.push(m);
      waiter?.();
    });
    const next = async (type: string) => {
      for (;;) {
        const i = messages.findIndex((m) => m.type === type);
        if (i >= 0) return messages.splice(i, 1)[0]!;
        await new Promise<void>((r) => (waiter = r));
      }
    };
    const answer = (id: number, callId: number, value: unknown) => {
      worker.postMessage({ type: "answer", id, callId, answer: JSON.stringify({ ok: true, value }) });
      Atomics.store(bell, 0, 1);
      Atomics.notify(bell, 0);
    };
    const limits = { wallMs: 5000, memoryBytes: 16 << 20, maxStackBytes: 256 << 10, maxToolCalls: 10, maxOutputBytes: 1024 };
    try {
      await next("ready");
      // Run 1 leaves call 1 unanswered: it awaits call 2 only, and ends.
      worker.postMessage({ type: "run", id: 1, job: { source: wrapProgram(`tools.a.slow({}); return await tools.a.fast({})`), limits } });
      const out = await next("calls");
      expect(out.calls?.map((c) => c.callId)).toEqual([1, 2]);
      answer(1, 2, "fast");
      expect((await next("done")).outcome?.resultJson).toBe('"fast"');
      // Run 2 makes a call 1 of its own; while it waits, run 1's call 1 is answered late, then run 2's.
      worker.postMessage({ type: "run", id: 2, job: { source: wrapProgram(`return await tools.a.slow({})`), limits } });
      const second = await next("calls");
      expect(second.id).toBe(2);
      expect(second.calls?.map((c) => c.callId)).toEqual([1]);
      // The port keeps order: the worker takes the late answer before run 2's (or with it, in one drain, where
      // the first answer for a call id wins), so a worker matching by call id alone would hand it to run 2.
      answer(1, 1, "meant for run 1");
      answer(2, 1, "meant for run 2");
      expect((await next("done")).outcome?.resultJson).toBe('"meant for run 2"');
    } finally {
      await worker.terminate();
    }
  });
});

type FromWorkerMessage = { type: string; id?: number; calls?: { callId: number }[]; outcome?: { resultJson?: string } };
