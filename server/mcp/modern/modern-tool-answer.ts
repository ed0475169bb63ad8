// A tools/call's answer for a 2026-07-28 client, as the tasks extension has it. The gateway alone decides what
// becomes a task (a held HIGH-tier call, an async tool, a call still running after the threshold); the client only
// says whether it can take one. Declared: such a call is answered with the CreateTaskResult of its row, read back
// from the database (so it is committed before its handle leaves). Not declared: the call ran without a task
// context (synchronously, nothing adopted); one that could only be held for approval, or an async tool (which only
// runs queued), is -32021 — both refused and audited by the pipeline, nothing held or queued.
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { McpError } from "@modelcontextprotocol/sdk/types.js";
import type { Db } from "../../db/client";
import { TASK_META } from "../../tasks/task-switch";
import { createTaskResult } from "./modern-task";
import { missingTasksExtension } from "./tasks-extension";

const errorCodeOf = (r: CallToolResult) => (r._meta?.["portcullis/error"] as { code?: unknown } | undefined)?.code;

export async function modernToolAnswer(db: Db, result: CallToolResult, declared: boolean, owner: { agentSessionId: string | null }, pollSeconds: number): Promise<Record<string, unknown>> {
  // resultType is the envelope's to set: an upstream's own `resultType` never reaches the client as ours.
  const { resultType: upstreamType, ...plain } = result as CallToolResult & { resultType?: unknown };
  const handle = result._meta?.[TASK_META] as { taskId?: unknown; handle?: unknown } | undefined;
  if (declared && handle?.handle === true && typeof handle.taskId === "string" && owner.agentSessionId) {
    const row = await db.task.findFirst({ where: { id: handle.taskId, agentSessionId: owner.agentSessionId } });
    if (row) return createTaskResult(row, pollSeconds);
  }
  const code = errorCodeOf(result);
  if (!declared && (code === "approval_required" || code === "task_required")) {
    const why = code === "task_required" ? "this tool runs only as a queued task" : "this call is held for a person's approval and can only be answered as a task";
    const refusal = missingTasksExtension(why);
    throw new McpError(refusal.code, refusal.message, refusal.data);
  }
  // Except a 2026 upstream's question to a 2026 client (passthrough): checked, and its state wrapped, by upstream-state.ts.
  return upstreamType === "input_required" ? { ...plain, resultType: upstreamType } : plain;
}
