// MCP task requests on `/mcp/s/<slug>` (tasks/get, tasks/result, tasks/list, tasks/cancel): answered from the
// gateway's own task rows for the agent session that owns them, never relayed upstream. Undefined: not a task
// request, the relay's to answer.
import { ErrorCode, McpError, type JSONRPCRequest } from "@modelcontextprotocol/sdk/types.js";
import { mcpRequestId } from "../../context";
import { mcpTaskStore, type TaskToolDeps } from "../../tasks/task-tools";
import type { McpSessionView } from "../handle-mcp-request";

/** A string parameter, or "" when absent or not a string. */
const str = (v: unknown): string => (typeof v === "string" ? v : "");

export async function transparentTasks(
  deps: TaskToolDeps,
  view: McpSessionView,
  owner: { agentSessionId: string; ownerId: string },
  request: JSONRPCRequest,
): Promise<Record<string, unknown> | undefined> {
  const params = (request.params ?? {}) as Record<string, unknown>;
  const ctx = { ...view.ctx, requestId: mcpRequestId(view.ctx.requestId, request.id) };
  const store = mcpTaskStore(deps, ctx, owner);
  const taskId = str(params.taskId);
  switch (request.method) {
    case "tasks/get": {
      const task = await store.getTask(taskId);
      if (!task) throw new McpError(ErrorCode.InvalidParams, `Task not found: ${taskId}`);
      return task;
    }
    case "tasks/result":
      return store.getTaskResult(taskId);
    case "tasks/list":
      return store.listTasks(str(params.cursor) || undefined);
    case "tasks/cancel": {
      await store.updateTaskStatus(taskId, "cancelled");
      return (await store.getTask(taskId)) ?? {};
    }
    default:
      return undefined;
  }
}
