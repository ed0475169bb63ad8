import { describe, expect, it } from "vitest";
import { errorResult, parseSandboxJson, runResult } from "./run-result";

const tally = (approvalIds: string[] = []) => ({ startedAt: performance.timeOrigin + performance.now() - 5, toolCalls: 2, workspaceOps: 1, approvalIds: new Set(approvalIds) });
const outcome = { logs: ["a"], toolCalls: 2, truncated: false };

describe("a run's result", () => {
  it("carries the parsed value, the logs, the counts, its duration and when the program started", () => {
    const t = tally();
    const r = runResult(t, { ...outcome, resultJson: '{"x":[1,2]}', startedAt: t.startedAt + 2 });
    expect(r).toMatchObject({ result: { x: [1, 2] }, logs: ["a"], toolCalls: 2, workspaceOps: 1, truncated: false, startupMs: 2 });
    expect(r.durationMs).toBeGreaterThanOrEqual(5);
  });

  it.each([
    { case: "a value cut to its bound: the marked text", patch: { resultCut: '"abc…[truncated 3 bytes]', truncated: true }, out: { result: '"abc…[truncated 3 bytes]', truncated: true } },
    { case: "JSON that does not parse", patch: { resultJson: "{" }, out: { error: { name: "SerializationError", message: "the returned value is not JSON" } } },
    { case: "nothing returned", patch: {}, out: { logs: ["a"] } },
  ])("of $case", ({ patch, out }) => {
    expect(runResult(tally(), { ...outcome, ...patch })).toMatchObject(out);
  });

  it("keeps an approval id only when the gateway issued it during this run", () => {
    const held = { name: "ApprovalRequiredError", message: "held", approvalId: "ap_1" };
    expect(runResult(tally(["ap_1"]), { ...outcome, error: held }).error).toEqual(held);
    expect(runResult(tally(["ap_2"]), { ...outcome, error: held }).error).toEqual({ name: "ApprovalRequiredError", message: "held" });
  });

  it("drops __proto__ keys of the sandbox's JSON, at any depth", () => {
    const value = parseSandboxJson('{"__proto__":{"admin":true},"a":{"__proto__":{"x":1},"b":2}}') as Record<string, unknown>;
    expect(value).toEqual({ a: { b: 2 } });
    expect(Object.getPrototypeOf(value)).toBe(Object.prototype);
    expect(({} as Record<string, unknown>).admin).toBeUndefined();
  });

  it("of a run that ended outside the sandbox: its error and what was counted, no logs", () => {
    expect(errorResult(tally(), { name: "SandboxBusyError", message: "busy" })).toMatchObject({ error: { name: "SandboxBusyError", message: "busy" }, logs: [], toolCalls: 2, workspaceOps: 1, truncated: false });
  });
});
