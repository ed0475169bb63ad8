// The tools /mcp/code lists: search_tools, browse_catalog and execute_code, and the task and approval tools in a compact form
// (same names and arguments, a line each). search_tools and execute_code are built-in registry tools
// (server/builtin), so their definitions are also what the Tools page shows and the schema step checks.
import type { Tool } from "@modelcontextprotocol/sdk/types.js";
import type { ExecLimits } from "./executor";

export function codeModeToolDefinitions(limits: ExecLimits): Tool[] {
  return [
    {
      name: "search_tools",
      description: "Find tools you may call (optionally of one server); detail full gives TypeScript declarations.",
      inputSchema: {
        type: "object",
        properties: { query: { type: "string" }, detail: { type: "string", enum: ["name", "summary", "full"] }, limit: { type: "integer" }, server: { type: "string" } },
        required: ["query"],
      },
    },
    {
      name: "browse_catalog",
      description: "When search misses: the servers you may use, a line each; with server, its tool names. Pages: pass cursor.",
      inputSchema: { type: "object", properties: { server: { type: "string" }, cursor: { type: "string" }, limit: { type: "integer" } } },
    },
    {
      name: "execute_code",
      description: `Run a JS/TS async function body in a sandbox: \`await tools.<server>.<tool>(args)\` (Promise.all: parallel), console.log, workspace, skills; return the result. High-risk tools throw ApprovalRequired (.approvalId). ${String(limits.wallMs / 1000)} s, ${String(limits.maxToolCalls)} calls.`,
      inputSchema: {
        type: "object",
        properties: { code: { type: "string" }, timeoutMs: { type: "integer" }, language: { type: "string", enum: ["js", "ts"] }, privacy: { type: "boolean" } },
        required: ["code"],
      },
    },
  ];
}

/** The task and approval tools as /mcp/code lists them: same names and arguments, a line each. */
const COMPACT: Record<string, string> = {
  get_task_status: "Status of a task; poll when retry_after_seconds says.",
  get_task_result: "Result of a finished task (page: 2, 3, … for large ones).",
  cancel_task: "Cancel one of your tasks.",
  list_my_tasks: "Your tasks, newest first.",
  request_approval: "Ask a person to approve one high-risk call: tool, exact arguments, justification.",
  get_approval_status: "PENDING, APPROVED (call now with those arguments), USED, REJECTED, EXPIRED or CANCELED.",
};

/** Keywords a model does not need to call a tool (its server validates the arguments anyway). */
const NOT_NEEDED = new Set(["description", "title", "additionalProperties", "default", "minimum", "maximum", "minLength", "maxLength"]);

function stripDescriptions(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(stripDescriptions);
  if (!schema || typeof schema !== "object") return schema;
  return Object.fromEntries(
    Object.entries(schema as Record<string, unknown>)
      .filter(([k]) => !NOT_NEEDED.has(k))
      .map(([k, v]) => [k, stripDescriptions(v)]),
  );
}

export function compactTools(tools: Tool[]): Tool[] {
  return tools.map((t) => ({ name: t.name, description: COMPACT[t.name] ?? t.description, inputSchema: stripDescriptions(t.inputSchema) as Tool["inputSchema"] }));
}
