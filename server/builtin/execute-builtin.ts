// The execute step for the gateway's own tools: after the same steps as an upstream call (audit, refuse,
// authorize, schema, rate limit, output bound), the tool runs here, in process, instead of at an upstream.
// Task and approval tools act only on the calling agent session's own tasks and approvals.
import { callApprovalTool, isApprovalTool } from "../approvals/approval-tools";
import { browseCatalog } from "../codemode/browse-catalog";
import { executeCode, searchTools } from "../codemode/code-mode-tools";
import type { CodeModeDeps } from "../codemode/program-runner";
import { toolError } from "../pipeline/tool-error";
import type { CallToolHandler } from "../pipeline/types";
import { callTaskTool, isTaskTool, taskContextOf } from "../tasks/task-tools";

/** `deps` is read per call: code mode's deps hold the pipeline this executor is part of. */
export function executeBuiltin(deps: () => CodeModeDeps): CallToolHandler {
  return async (call, ctx, notes) => {
    const name = call.tool.name;
    const scope = call.builtin;
    const grant = call.grant;
    const owner = grant?.agentSessionId ? { agentSessionId: grant.agentSessionId, ownerId: grant.userId } : undefined;
    const needsOwner = isTaskTool(name) || isApprovalTool(name);
    if (!scope || !grant || (needsOwner && !owner)) {
      notes.decision = "deny";
      notes.errorCode = "tool_not_allowed";
      notes.reason = "a built-in tool runs only for an agent session on an MCP endpoint";
      return toolError("tool_not_allowed", `${name} acts on an agent session's own tasks, approvals and programs: call it from an MCP endpoint with an agent session token.`);
    }
    const d = deps();
    if (isTaskTool(name)) return callTaskTool({ db: d.db, audit: d.audit, ...d.taskTools }, ctx, owner!, name, call.arguments);
    if (isApprovalTool(name)) {
      if (!d.approvals) return toolError("unknown_tool", `${name} is not offered: this gateway has no approvals.`);
      const tc = taskContextOf(grant, scope.endpoint, {})!;
      return callApprovalTool({ approvals: d.approvals, policy: d.policy, resolve: scope.resolve }, ctx, grant, tc, name, call.arguments);
    }
    if (name === "search_tools") return searchTools(d, grant, scope.bucket, call.arguments, call.signal);
    if (name === "browse_catalog") return browseCatalog(d, grant, scope.bucket, call.arguments);
    if (name === "execute_code") return executeCode(d, { ...call, grant }, ctx, notes, scope.bucket);
    return toolError("unknown_tool", `The gateway has no built-in tool ${name}.`);
  };
}
