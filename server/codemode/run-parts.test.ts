import vm from "node:vm";
import { describe, expect, it } from "vitest";
import { callGate } from "./run-calls";
import { errorNames } from "./run-errors";
import { outputBounds } from "./run-output";
import { RUN_PARTS, runPartsSource, type RunParts } from "./run-parts";

const LIMITS = { wallMs: 300, memoryBytes: 8 * 1024 * 1024, maxStackBytes: 64 * 1024 };
const flat = (...calls: unknown[][]) => JSON.stringify(calls.flat());

describe("a run's output bounds", () => {
  it.each([
    { case: "lines within the budget, warn and error marked", max: 64, lines: [["log", "a"], ["warn", "b"], ["error", "c"]], logs: ["a", "[warn] b", "[error] c"], truncated: false },
    { case: "the first line past the budget cut, later ones dropped, one marker", max: 8, lines: [["log", "123456"], ["log", "abcdef"], ["info", "xyz"]], logs: ["123456", "ab", "…[truncated 7 bytes]"], truncated: true },
    { case: "a cut never splits a character (é is two bytes)", max: 3, lines: [["log", "aéé"]], logs: ["aé", "…[truncated 2 bytes]"], truncated: true },
    { case: "nothing left: the whole line dropped", max: 2, lines: [["log", "ab"], ["log", "c"]], logs: ["ab", "…[truncated 1 bytes]"], truncated: true },
  ])("$case", ({ max, lines, logs, truncated }) => {
    const output = outputBounds(max);
    for (const [level, text] of lines) output.log(level!, text!);
    expect(output.logs()).toEqual({ logs, truncated });
  });

  it.each([
    { case: "nothing returned", json: undefined, out: {} },
    { case: "within the budget", json: '"abc"', out: { resultJson: '"abc"' } },
    { case: "past it: cut with a marker", json: '"abcdefgh"', out: { resultCut: '"abcd…[truncated 5 bytes]', truncated: true } },
  ])("the result: $case", ({ json, out }) => {
    expect(outputBounds(5).result(json)).toEqual(out);
  });
});

describe("a run's call gate", () => {
  it("sends well-formed calls, refuses past maxToolCalls and past the argument bound, counts workspace operations apart", () => {
    const gate = callGate(3, 10);
    const first = gate.take(flat([1, "crm", "get", '{"a":1}'], [2, "$workspace", "read", null], [3, "crm", "list", null], [4, "crm", "big", "x".repeat(11)]));
    expect(first.calls).toEqual([
      { callId: 1, server: "crm", tool: "get", argsJson: '{"a":1}' },
      { callId: 2, server: "$workspace", tool: "read" },
      { callId: 3, server: "crm", tool: "list" },
    ]);
    expect(first.refusals).toEqual([{ callId: 4, answer: JSON.stringify({ ok: false, error: { name: "ToolArgumentsTooLarge", message: "tools.crm.big was given 11 characters of arguments (at most 10)" } }) }]);
    expect(gate.toolCalls()).toBe(2);
    const second = gate.take(flat([5, "crm", "get", null], [6, "crm", "get", null], [7, "$workspace", "write", null], [8, "$skills", "read", null], [9, "$workspace", "write", null]));
    expect(second.calls.map((c) => c.callId)).toEqual([5, 7, 8]);
    expect(second.refusals.map((r) => [r.callId, (JSON.parse(r.answer) as { error: { name: string; message: string } }).error])).toEqual([
      [6, { name: "ToolCallLimitError", message: "the program made more than 3 tool calls" }],
      [9, { name: "ToolCallLimitError", message: "the program made more than 3 workspace operations" }],
    ]);
    expect(gate.toolCalls()).toBe(3);
  });

  it.each([
    { case: "an empty outbox", text: "" },
    { case: "not an array", text: '{"callId":1}' },
    { case: "entries of the wrong types", text: flat(["1", "crm", "get", null], [2, 3, "get", null], [3, "crm", null, null]) },
    { case: "a trailing partial entry", text: JSON.stringify([1, "crm"]) },
  ])("takes nothing from $case", ({ text }) => {
    expect(callGate(5, 100).take(text)).toEqual({ calls: [], refusals: [] });
  });
});

describe("a run's error names", () => {
  const errors = errorNames(LIMITS);
  const none = { timedOut: false, overMemory: false };
  it.each([
    { case: "past the wall clock", e: { name: "InternalError", message: "interrupted" }, stop: { timedOut: true, overMemory: false }, out: { name: "TimeoutError", message: "the program ran longer than 300 ms" } },
    { case: "past memory", e: { name: "InternalError", message: "interrupted" }, stop: { timedOut: false, overMemory: true }, out: { name: "MemoryError", message: "the program used more than 8 MiB of memory" } },
    { case: "out of memory, as the VM says it", e: { name: "InternalError", message: "out of memory" }, stop: none, out: { name: "MemoryError", message: "the program used more than 8 MiB of memory" } },
    { case: "a stack overflow", e: { name: "RangeError", message: "Maximum call stack size exceeded" }, stop: none, out: { name: "StackOverflowError", message: "the program exceeded its 64 KiB stack (recursion too deep)" } },
    { case: "anything else, as it is", e: { name: "TypeError", message: "x is not a function" }, stop: none, out: { name: "TypeError", message: "x is not a function" } },
  ])("names $case", ({ e, stop, out }) => {
    expect(errors.named(e, stop)).toEqual(out);
  });

  it.each([
    { case: "a description", json: '{"name":"RangeError","message":"no"}', out: { name: "RangeError", message: "no" } },
    { case: "one waiting on an approval", json: '{"name":"ApprovalRequiredError","message":"held","approvalId":"ap_1"}', out: { name: "ApprovalRequiredError", message: "held", approvalId: "ap_1" } },
    { case: "text that is not JSON", json: "{", out: { name: "Error", message: "the program failed" } },
    { case: "JSON of another shape", json: '{"name":1}', out: { name: "Error", message: "the program failed" } },
    { case: "nothing", json: undefined, out: { name: "Error", message: "the program failed" } },
  ])("reads what the VM threw: $case", ({ json, out }) => {
    expect(errors.thrown(json)).toEqual(out);
  });

  it("names a failure of the host a SandboxError", () => {
    expect([errors.hostFault(new Error("worker gone")), errors.hostFault("text"), errors.hostFault(42)]).toEqual([
      { name: "SandboxError", message: "worker gone" },
      { name: "SandboxError", message: "text" },
      { name: "SandboxError", message: "unknown failure" },
    ]);
  });
});

describe("the parts as the worker carries them", () => {
  // The worker evaluates runPartsSource() in a script of its own: a part that used a module-level name (a helper, an
  // import) would fail there. A context with nothing but Buffer (Node's global in a worker) proves each stands alone.
  const carried = vm.runInNewContext(`(${runPartsSource()})`, { Buffer }) as RunParts;

  it("carries every part, the bootstrap as the same text", () => {
    expect(Object.keys(carried).sort()).toEqual(Object.keys(RUN_PARTS).sort());
    expect(carried.bootstrap).toBe(RUN_PARTS.bootstrap);
  });

  it("runs each part from its source alone, as it runs here", () => {
    const output = carried.outputBounds(8);
    output.log("warn", "abcdefgh");
    expect(output.logs()).toEqual({ logs: ["[warn] a", "…[truncated 7 bytes]"], truncated: true });
    expect(carried.callGate(0, 10).take(flat([1, "a", "b", null])).refusals).toHaveLength(1);
    expect(carried.errorNames(LIMITS).named({ name: "X", message: "y" }, { timedOut: true, overMemory: false }).name).toBe("TimeoutError");
  });
});
