// One structured log line per tool call, on a child logger bound to the call's request id (the same id as
// its audit event), so a call's log lines and its audit row can be joined.
import type { Logger } from "../logger";
import type { CallToolHandler } from "../pipeline/types";

export function logCalls(handler: CallToolHandler, logger: Logger): CallToolHandler {
  const base = logger.child({ component: "tool-call" });
  return async (call, ctx, notes) => {
    const started = performance.now();
    // Made only for a line that is written: below the log's level (LOG_LEVEL=warn, say) an answered call makes
    // no child logger and no fields.
    const log = () => base.child({ requestId: ctx.requestId });
    const fields = () => ({
      tool: call.tool.gatewayName,
      endpoint: call.endpoint,
      ...(ctx.actor.type === "user" && { userId: ctx.actor.userId }),
      ...(ctx.agent && { agentId: ctx.agent.agentId, agentSessionId: ctx.agent.agentSessionId }),
      decision: notes.decision ?? "allow",
      ...(notes.errorCode && { errorCode: notes.errorCode }),
      ...(notes.taskId && { taskId: notes.taskId }),
      ...(notes.approvalId && { approvalId: notes.approvalId }),
      durationMs: Math.round(performance.now() - started),
    });
    try {
      const result = await handler(call, ctx, notes);
      if (base.isLevelEnabled("info")) log().info({ ...fields(), isError: result.isError === true }, "tool call");
      return result;
    } catch (err) {
      if (base.isLevelEnabled("warn")) log().warn({ ...fields(), err }, "tool call failed");
      throw err;
    }
  };
}
