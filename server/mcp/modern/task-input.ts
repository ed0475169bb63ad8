// The client's answer to a held call's input request (tasks/update). The approval itself is a person's, made in
// the console: the client cannot grant it. Declining (or cancelling) the request withdraws the call — the task is
// cancelled and its approval request leaves the approvers' queue; accepting only acknowledges it, after which the
// task shows `working` ("awaiting approval") instead of asking again. Either is kept as a task event, so every
// process sees it.
import type { Db, Task } from "../../db/client";
import { isGatewayError } from "../../errors";
import { cancelTask } from "../../tasks/cancel-task";
import type { ModernTaskDeps, TaskOwner } from "./tasks-extension";

const ANSWERED = "input_answered";

export async function answeredInput(db: Db, taskId: string, key: string): Promise<boolean> {
  return (await db.taskEvent.count({ where: { taskId, type: ANSWERED, data: { path: ["key"], equals: key } } })) > 0;
}

export async function answerInput(deps: Pick<ModernTaskDeps, "db" | "audit">, owner: TaskOwner, t: Task, key: string, response: unknown): Promise<void> {
  const action = (response as { action?: unknown } | null)?.action;
  if (action === "decline" || action === "cancel") {
    try {
      const reason = `Withdrawn by the client: it answered the approval request with "${action}" (tasks/update).`;
      await cancelTask(deps.db, deps.audit, owner.ctx, { userId: owner.ownerId, role: "USER" }, t.id, reason, ["AWAITING_APPROVAL"]);
    } catch (err) {
      // Decided meanwhile (an approver released it, or it was cancelled): the answer no longer applies.
      if (!(isGatewayError(err) && err.code === "conflict")) throw err;
    }
    return;
  }
  if (action !== "accept" || (await answeredInput(deps.db, t.id, key))) return;
  await deps.db.taskEvent.create({ data: { taskId: t.id, type: ANSWERED, data: { key, action } } });
}
