// The gateway's own tools as the built-in server's version records them (what the Tools page shows and the
// schema step checks). Each endpoint lists the ones it offers under their bare names (mcp/endpoint-naming.ts).
import type { Tool } from "@modelcontextprotocol/sdk/types.js";
import { approvalToolDefinitions } from "../approvals/approval-tools";
import { codeModeToolDefinitions } from "../codemode/code-mode-tool-definitions";
import type { ExecLimits } from "../codemode/executor";
import { taskToolDefinitions } from "../tasks/task-tools";

/** Read-only search starts LOW like other read-only tools; execute_code (its calls are checked one by one) MEDIUM. */
const CODE_ANNOTATIONS: Record<string, Tool["annotations"]> = {
  search_tools: { readOnlyHint: true, openWorldHint: false },
  browse_catalog: { readOnlyHint: true, openWorldHint: false },
  execute_code: { readOnlyHint: false, destructiveHint: false, openWorldHint: true },
};

export function builtinToolDefinitions(opts: { pollSeconds: number; limits: ExecLimits }): Tool[] {
  const code = codeModeToolDefinitions(opts.limits).map((t) => ({ ...t, annotations: CODE_ANNOTATIONS[t.name] }));
  return [...taskToolDefinitions(opts.pollSeconds), ...approvalToolDefinitions(), ...code];
}
