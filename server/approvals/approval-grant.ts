// What lets a HIGH-tier call skip being held: an approval already given, or a replay of a call already past it.
import type { Approval } from "../db/client";
import type { TaskContext, ToolCall } from "../pipeline/types";
import { hashArguments } from "../tasks/hash-arguments";
import type { ApprovalScope } from "./approval-scope";

/**
 * Before holding a HIGH-tier call: an approval that lets it run now — a standing approval of the tool for the
 * session, or an approved request_approval grant for exactly these arguments (consumed here, once).
 */
export async function grantFor(s: ApprovalScope, call: ToolCall, tc: TaskContext): Promise<Approval | null> {
  const { db } = s;
  const standing = await db.approval.findFirst({
    where: { kind: "STANDING", status: "APPROVED", agentSessionId: tc.agentSessionId, toolName: call.tool.gatewayName, standingUntil: { gt: new Date() } },
  });
  if (standing) return standing;
  // FOR UPDATE, not SKIP LOCKED: the row may be locked by anything that reads it to change it (an approver's
  // decision or withdrawal that then fails, the expiry sweep), and skipping it would hold an approved call as
  // if it had no grant. A racing call that used it up meanwhile no longer matches once the lock is free.
  const [used] = await db.$queryRaw<Approval[]>`
    UPDATE approvals SET status = 'USED', "usedAt" = now(), "updatedAt" = now()
    WHERE id = (
      SELECT id FROM approvals
      WHERE kind = 'ADVANCE' AND status = 'APPROVED' AND "agentSessionId" = ${tc.agentSessionId}
        AND "toolName" = ${call.tool.gatewayName} AND "argumentsHash" = ${hashArguments(call.arguments)} AND "expiresAt" > now()
      ORDER BY "createdAt" LIMIT 1 FOR UPDATE)
    RETURNING *`;
  return used ?? null;
}

/**
 * A retry with an idempotency key whose first call already has its task (not one waiting for approval): the
 * task switch answers it with that task, so it must neither use up a grant nor be held for a person again.
 */
export async function isKeyedReplay(s: ApprovalScope, tc: TaskContext): Promise<boolean> {
  const { db } = s;
  if (!tc.idempotencyKey) return false;
  const first = await db.task.findUnique({ where: { agentSessionId_idempotencyKey: { agentSessionId: tc.agentSessionId, idempotencyKey: tc.idempotencyKey } }, select: { status: true } });
  return !!first && first.status !== "AWAITING_APPROVAL";
}
