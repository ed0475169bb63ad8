// The row of a new task, from the call it runs and who submitted it.
import type { RequestContext } from "../context";
import { toJson } from "../db/client";
import type { TaskContext, ToolCall } from "../pipeline/types";
import { hashArguments } from "./hash-arguments";
import type { TaskScope } from "./task-scope";

export function taskRow(
  s: TaskScope,
  call: ToolCall,
  tc: TaskContext,
  ctx: RequestContext,
  origin: string,
  status: "PENDING" | "RUNNING" | "AWAITING_APPROVAL",
  startedAt?: Date,
) {
  const { opts, runnerId } = s;
  // created_at is when the call was made, started_at when it began running, both on this clock (the dedupe
  // window reads created_at against it too). A call that runs here was made when it started: an adopted one
  // (after the threshold) is dated by its start, not by its adoption, so created_at <= started_at always.
  const createdAt = startedAt ?? new Date();
  return {
    status,
    createdAt,
    origin,
    ownerId: tc.ownerId,
    agentSessionId: tc.agentSessionId,
    toolId: call.tool.id,
    toolName: call.tool.gatewayName,
    arguments: toJson(call.arguments),
    argumentsHash: hashArguments(call.arguments),
    idempotencyKey: tc.idempotencyKey ?? null,
    retryable: call.tool.retryable,
    maxAttempts: call.tool.retryable ? opts.maxAttempts : 1,
    requestId: ctx.requestId,
    endpoint: tc.endpoint,
    ...(status === "RUNNING" && { runnerId, startedAt: createdAt, attempts: 1 }),
  };
}
