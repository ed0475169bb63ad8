// The claim of an ordinary call in flight (call_claims, call-claims.ts) becomes a task when someone must follow it:
// an identical call joins it (and is answered with the task), or the call outlives the threshold. The claim row
// is locked first, so a join and the first call's drop (DELETE … WHERE "taskId" IS NULL) are decided in one order:
// the drop waits for the join and then deletes nothing (the first call finishes the task, settleClaim), or the
// join waits for the drop and then finds no claim (the first call has been answered: the caller looks again).
import { isTerminalTaskStatus } from "../../lib/task-schemas";
import type { DbTx, Task } from "../db/client";
import { publishChange } from "../events/change-bus";
import type { ClaimRef } from "./call-claims";
import { taskEvent } from "./task-event";

type ClaimRecord = {
  id: string;
  taskId: string | null;
  runnerId: string;
  ownerId: string;
  toolId: string | null;
  arguments: string;
  retryable: boolean;
  maxAttempts: number;
  requestId: string;
  endpoint: string;
  createdAt: Date;
};

export type ClaimKey = Omit<ClaimRef, "id" | "agentSessionId"> & { agentSessionId: string };

/**
 * The task of the claim in flight for `key` (made now, origin "threshold", unless a twin made it first), or null
 * when there is no such claim (or, with `id`, not that one). `made` says whether this call made it (its audit
 * event is then the caller's to write, after the transaction).
 */
export async function joinClaim(tx: DbTx, key: ClaimKey, requestId: string, id?: string): Promise<{ task: Task; made: boolean } | null> {
  const [c] = await tx.$queryRaw<ClaimRecord[]>`
    SELECT "id", "taskId", "runnerId", "ownerId", "toolId", "arguments", "retryable", "maxAttempts", "requestId", "endpoint", "createdAt"
    FROM call_claims WHERE "agentSessionId" = ${key.agentSessionId} AND "toolName" = ${key.toolName} AND "argumentsHash" = ${key.argumentsHash}
    FOR UPDATE`;
  if (!c || (id && c.id !== id)) return null;
  if (c.taskId) {
    const task = await tx.task.findUnique({ where: { id: c.taskId } });
    if (task && !isTerminalTaskStatus(task.status)) return { task, made: false };
    // Its task has ended (or is gone) and the claim is left over: its owner releases it a moment later, or never
    // (a queued task's claim, place-claim.ts, is released by nobody). The caller looks in tasks, or claims anew.
    await tx.$executeRaw`DELETE FROM call_claims
      WHERE "agentSessionId" = ${key.agentSessionId} AND "toolName" = ${key.toolName} AND "argumentsHash" = ${key.argumentsHash} AND "id" = ${c.id}`;
    return null;
  }
  const task = await tx.task.create({
    data: {
      id: c.id, status: "RUNNING", origin: "threshold", ownerId: c.ownerId, agentSessionId: key.agentSessionId, toolId: c.toolId, toolName: key.toolName,
      arguments: JSON.parse(c.arguments) as object, argumentsHash: key.argumentsHash, retryable: c.retryable, maxAttempts: c.maxAttempts,
      requestId: c.requestId, endpoint: c.endpoint, runnerId: c.runnerId, attempts: 1, createdAt: c.createdAt, startedAt: c.createdAt,
    },
  });
  await tx.$executeRaw`UPDATE call_claims SET "taskId" = ${c.id}
    WHERE "agentSessionId" = ${key.agentSessionId} AND "toolName" = ${key.toolName} AND "argumentsHash" = ${key.argumentsHash}`;
  await taskEvent(tx, task.id, "submitted", { origin: "threshold", requestId });
  await taskEvent(tx, task.id, "started", { attempt: 1, runner: c.runnerId, inline: true });
  await publishChange(tx, { kind: "task", taskId: task.id, status: task.status });
  return { task, made: true };
}
