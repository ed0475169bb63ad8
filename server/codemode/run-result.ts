// What the agent gets from a finished run: the worker's outcome (run-output.ts bounded it already) as an ExecResult.
// The returned JSON is parsed as host data with `__proto__` keys dropped, so no later merge can reach a prototype;
// an approval id passes only when the gateway issued it during this run: a program cannot mint one by throwing it.
import type { ExecError, ExecResult } from "./executor";
import type { RunOutcome } from "./quickjs-runner";

/** What the parent counted of a run while it ran. */
export type RunTally = { startedAt: number; toolCalls: number; workspaceOps: number; approvalIds: ReadonlySet<string> };

const now = () => performance.timeOrigin + performance.now();

/** JSON from the sandbox as host data: `__proto__` keys are dropped so no later merge can reach a prototype. */
export function parseSandboxJson(text: string): unknown {
  return JSON.parse(text, (key, value: unknown) => (key === "__proto__" ? undefined : value));
}

export function runResult(tally: RunTally, outcome: RunOutcome): ExecResult {
  const result: ExecResult = { logs: outcome.logs, toolCalls: tally.toolCalls, workspaceOps: tally.workspaceOps, durationMs: now() - tally.startedAt, truncated: outcome.truncated };
  if (outcome.startedAt !== undefined) result.startupMs = Math.max(0, outcome.startedAt - tally.startedAt);
  if (outcome.resultJson !== undefined) {
    try {
      result.result = parseSandboxJson(outcome.resultJson);
    } catch {
      result.error = { name: "SerializationError", message: "the returned value is not JSON" };
    }
  } else if (outcome.resultCut !== undefined) result.result = outcome.resultCut;
  if (outcome.error) {
    const { name, message, approvalId } = outcome.error;
    result.error = { name, message, ...(approvalId !== undefined && tally.approvalIds.has(approvalId) && { approvalId }) };
  }
  return result;
}

/** A run that ended before or outside the sandbox (closed, busy, not parsed, its worker lost). */
export function errorResult(tally: Pick<RunTally, "startedAt" | "toolCalls" | "workspaceOps">, error: ExecError): ExecResult {
  return { error, logs: [], toolCalls: tally.toolCalls, workspaceOps: tally.workspaceOps, durationMs: now() - tally.startedAt, truncated: false };
}
