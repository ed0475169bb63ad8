// The JavaScript a code-mode program's QuickJS context evaluates first (quickjs-runner.ts). It receives the host
// functions as arguments (never as globals), installs `tools` and `console`, and returns { run, deliver, drain }:
// run(source) starts the program, drain() takes the tool calls it queued as one JSON text ([callId, server, tool,
// argsJson | null, …], "" for none), deliver(callId, answerJson) settles one. Errors are described inside the VM,
// so the host reads only strings and never a guest object's getters. A string, so the worker's source can carry it.
export const RUN_BOOTSTRAP = `(function (hostLog, hostStarted, hostFinish) {
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
