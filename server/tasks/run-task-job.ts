// The graphile-worker job of a queued task: claim it (only a PENDING one), re-authorize it against the state at
// this moment, rebuild the call and run it.
import type { Task as GraphileTask } from "graphile-worker";
import type { RequestContext } from "../context";
import type { ToolErrorCode } from "../pipeline/tool-error";
import type { CallNotes, CallToolHandler, ToolCall } from "../pipeline/types";
import type { Registry } from "../registry/create-registry";
import { auditTransition } from "./audit-transition";
import { finishTask } from "./finish-task";
import { reauthorizeTask } from "./reauthorize-task";
import { revokeTask } from "./revoke-task";
import { taskEvent } from "./task-event";
import type { TaskScope } from "./task-scope";
import { trackTask } from "./track-task";

/** The graphile-worker job: claim the task (only a PENDING one), rebuild the call, run it. */
export const runTaskJob =
  (s: TaskScope, run: { registry: Registry; execute: CallToolHandler }): GraphileTask =>
  async (payload, helpers) => {
    const { db, bus, runnerId, live } = s;
  const taskId = (payload as { taskId?: unknown }).taskId;
  if (typeof taskId !== "string") return;
  await live();
  const claimed = await db.task.updateMany({
    where: { id: taskId, status: "PENDING" },
    data: {
      status: "RUNNING",
      runnerId,
      workerId: helpers.job.locked_by,
      jobId: String(helpers.job.id),
      startedAt: new Date(),
      attempts: { increment: 1 },
    },
  });
  if (claimed.count === 0) return; // canceled, already claimed, or gone
  const task = await db.task.findUniqueOrThrow({
    where: { id: taskId },
    include: { agentSession: { select: { canaryBucket: true, agentId: true } }, owner: true },
  });
  // Claimed first (no other process runs it now), then checked against the state at this moment: a task
  // whose session, user, grant, tool or tier no longer lets it run ends here and never reaches the upstream.
  const check = await reauthorizeTask(db, task);
  if (!check.ok) {
    await db.$transaction((tx) => revokeTask(tx, taskId, { status: "RUNNING", runnerId }, check.reason, { step: check.step, attempt: task.attempts }));
    return;
  }
  await taskEvent(db, taskId, "started", { attempt: task.attempts, runner: runnerId });
  await auditTransition(s, task, task.toolName);
  await bus.publish({ kind: "task", taskId, status: "RUNNING" });
  const resolved = await run.registry.resolveTool(task.toolName, task.agentSession?.canaryBucket ?? 0);
  if ("error" in resolved || resolved.refusal) {
    const message = "error" in resolved ? resolved.error : resolved.refusal!.message;
    await finishTask(s, 
      taskId,
      {
        result: {
          isError: true,
          content: [{ type: "text", text: message }],
          _meta: { "portcullis/error": { code: "error" in resolved ? ("unknown_tool" satisfies ToolErrorCode) : resolved.refusal!.code, message } },
        },
        bytes: 0,
        truncated: false,
      },
      task.toolName,
    );
    return;
  }
  const ctx: RequestContext = {
    actor: { type: "user", userId: task.ownerId, email: task.owner.email, role: task.owner.role },
    requestId: task.requestId ?? `task:${taskId}`,
    via: "agent_token",
    ...(task.agentSession &&
      task.agentSessionId && { agent: { agentId: task.agentSession.agentId, agentSessionId: task.agentSessionId } }),
  };
  const controller = new AbortController();
  let sink: ((p: { progress: number; total?: number | undefined; message?: string | undefined }) => void) | undefined;
  const call: ToolCall = {
    tool: resolved.tool,
    arguments: check.arguments,
    endpoint: "mcp",
    signal: controller.signal,
    onProgress: (p) => sink?.(p),
  };
  // The notes carry the upstream credential the run used to the task's end event (issue 22).
  const notes: CallNotes = {};
  await trackTask(s, taskId, resolved.tool, run.execute(call, ctx, notes), controller, (fn) => (sink = fn), notes);
};
