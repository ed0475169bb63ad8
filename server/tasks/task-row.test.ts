// The task row alone (no database): what a new task records of its call, by status.
import { describe, expect, it } from "vitest";
import { systemContext } from "../context";
import type { ResolvedTool, ToolCall } from "../pipeline/types";
import { hashArguments } from "./hash-arguments";
import { taskRow } from "./task-row";
import { DEFAULT_TASK_OPTIONS, type TaskScope } from "./task-scope";

const scope = { opts: { ...DEFAULT_TASK_OPTIONS, maxAttempts: 4 }, runnerId: "runner-1" } as TaskScope;
const tool = (retryable: boolean) => ({ id: "t1", gatewayName: "shop__orders", retryable }) as ResolvedTool;
const call = (retryable: boolean): ToolCall => ({ tool: tool(retryable), arguments: { b: 2, a: 1 }, endpoint: "mcp", signal: new AbortController().signal });
const tc = { ownerId: "u1", agentSessionId: "s1", endpoint: "mcp", idempotencyKey: "k1" };
const ctx = systemContext("test", "req-1");

describe("taskRow", () => {
  it("a queued task: PENDING, not yet this runner's, retried up to maxAttempts only when the tool is retryable", () => {
    const retryable = taskRow(scope, call(true), tc, ctx, "async", "PENDING");
    expect(retryable).toMatchObject({ status: "PENDING", origin: "async", ownerId: "u1", agentSessionId: "s1", toolName: "shop__orders", idempotencyKey: "k1", requestId: "req-1", retryable: true, maxAttempts: 4 });
    expect(retryable).not.toHaveProperty("runnerId");
    expect(retryable.argumentsHash).toBe(hashArguments({ a: 1, b: 2 }));
    expect(taskRow(scope, call(false), tc, ctx, "async", "PENDING").maxAttempts).toBe(1);
  });

  it("a task running here: this runner's, first attempt, created when it started", () => {
    const startedAt = new Date("2026-01-01T00:00:00Z");
    expect(taskRow(scope, call(true), tc, ctx, "threshold", "RUNNING", startedAt)).toMatchObject({ status: "RUNNING", runnerId: "runner-1", attempts: 1, createdAt: startedAt, startedAt });
  });
});
