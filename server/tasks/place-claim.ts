// A queued call without a key (a tool marked async, or an MCP task) that may be deduplicated against an ordinary
// call in flight: its task's claim in call_claims, inserted in the transaction that inserts the task. An ordinary
// call's claim (call-claims.ts) takes no advisory lock, so only the primary key orders the two: an ordinary claim
// inserted meanwhile makes this one wait for it and insert nothing (the caller joins it), and an ordinary claim
// made after this one finds it and joins the task. It holds the task's id from the start and is never released:
// the first identical call after the task has ended deletes it (joinClaim), as does the sweep with its runner.
import type { DbTx } from "../db/client";
import type { ClaimRow } from "./call-claims";

/** True when the claim was made (else an identical call holds one: join it). */
export async function placeClaim(tx: DbTx, row: ClaimRow, taskId: string, createdAt: Date): Promise<boolean> {
  const made = await tx.$executeRaw`
    INSERT INTO call_claims ("agentSessionId", "toolName", "argumentsHash", "id", "taskId", "runnerId", "ownerId", "toolId", "arguments", "retryable", "maxAttempts", "requestId", "endpoint", "createdAt")
    VALUES (${row.agentSessionId}, ${row.toolName}, ${row.argumentsHash}, ${taskId}, ${taskId}, ${row.runnerId}, ${row.ownerId}, ${row.toolId}, ${JSON.stringify(row.arguments)},
      ${row.retryable}, ${row.maxAttempts}, ${row.requestId}, ${row.endpoint}, ${createdAt.toISOString()}::timestamp)
    ON CONFLICT DO NOTHING`;
  return made === 1;
}
