// The MCP server behind `/mcp/code`: whatever the number of upstream tools, an agent sees only search_tools,
// execute_code, request_approval and the task tools. It finds tools with search_tools and calls them from a
// short program run by execute_code in a QuickJS sandbox; only what the program returns goes back to the model.
// Every call inside a program goes through the same pipeline as a direct call (whitelist, tier, rules, schema,
// rate limit, audit under the execution's request id).
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { CallToolRequestSchema, ErrorCode, ListToolsRequestSchema, McpError, type CallToolResult, type Tool } from "@modelcontextprotocol/sdk/types.js";
import { z } from "zod";
import { approvalToolDefinitions, callApprovalTool, isApprovalTool } from "../approvals/approval-tools";
import { mcpRequestId, type RequestContext } from "../context";
import { GATEWAY_INFO, type AggregateSession } from "../mcp/build-aggregate-server";
import { auditedRefusal, auditedRequest } from "../mcp/audited-request";
import { refuseInvalidToolName } from "../mcp/refuse-invalid-tool-name";
import { cancellable } from "../mcp/cancellation";
import { sessionAccess } from "../policy/session-access";
import { toolError } from "../pipeline/tool-error";
import { parseGatewayName } from "../registry/gateway-name";
import { callTaskTool, isTaskTool, taskContextOf, taskToolDefinitions, type TaskToolDeps } from "../tasks/task-tools";
import { runProgram, type CodeModeDeps } from "./program-runner";
import type { ExecLimits } from "./executor";
import { CALL_TOOL_RESULT_PREAMBLE } from "./declarations";
import { cachedToolIndex } from "./tool-index-cache";
import type { SearchAnswer } from "./tool-search";

export type { CodeModeDeps } from "./program-runner";

const MAX_CODE_CHARS = 100_000;

export const CODE_MODE_TOOLS = ["search_tools", "execute_code"] as const;

const ZSearch = z
  .object({
    query: z.string().min(1).max(500),
    detail: z.enum(["name", "summary", "full"]).default("summary"),
    limit: z.number().int().min(1).max(50).default(10),
  })
  .strict();

const ZExecute = z
  .object({
    code: z.string().min(1).max(MAX_CODE_CHARS),
    timeoutMs: z.number().int().min(100).optional(),
    language: z.enum(["js", "ts"]).optional(),
    privacy: z.boolean().optional(),
  })
  .strict();

function codeModeToolDefinitions(limits: ExecLimits): Tool[] {
  return [
    {
      name: "search_tools",
      description: "Find tools you may call; detail full gives TypeScript declarations.",
      inputSchema: {
        type: "object",
        properties: { query: { type: "string" }, detail: { type: "string", enum: ["name", "summary", "full"] }, limit: { type: "integer" } },
        required: ["query"],
      },
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

function stripDescriptions(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(stripDescriptions);
  if (!schema || typeof schema !== "object") return schema;
  return Object.fromEntries(
    Object.entries(schema as Record<string, unknown>)
      .filter(([k]) => !NOT_NEEDED.has(k))
      .map(([k, v]) => [k, stripDescriptions(v)]),
  );
}

function compact(tools: Tool[]): Tool[] {
  return tools.map((t) => ({ name: t.name, description: COMPACT[t.name] ?? t.description, inputSchema: stripDescriptions(t.inputSchema) as Tool["inputSchema"] }));
}

/** Keywords a model does not need to call a tool (its server validates the arguments anyway). */
const NOT_NEEDED = new Set(["description", "title", "additionalProperties", "default", "minimum", "maximum", "minLength", "maxLength"]);

/** search_tools' answer as the model reads it: one line per tool (or its declaration), text only. */
function searchText(answer: SearchAnswer, detail: "name" | "summary" | "full"): string {
  if (answer.tools.length === 0) return "No tool you may call matches. Try other words.";
  const lines = answer.tools.map((t) =>
    detail === "name" ? t.call : detail === "summary" ? `${t.call}({${t.args ?? ""}})${t.description ? ` — ${t.description}` : ""}` : (t.declaration ?? t.call),
  );
  const preamble = detail === "full" && answer.tools.some((t) => t.declaration?.includes("CallToolResult")) ? `${CALL_TOOL_RESULT_PREAMBLE}\n` : "";
  return preamble + lines.join(detail === "full" ? "\n\n" : "\n");
}

function invalid(err: z.ZodError): never {
  throw new McpError(ErrorCode.InvalidParams, `Invalid arguments: ${err.issues.map((i) => `${i.path.join(".") || "(root)"}: ${i.message}`).join("; ")}`);
}

const asResult = (value: Record<string, unknown>, isError = false): CallToolResult => ({
  content: [{ type: "text", text: JSON.stringify(value) }],
  structuredContent: value,
  ...(isError && { isError: true }),
});

export function buildCodeModeServer(deps: CodeModeDeps, session: AggregateSession): Server {
  const taskDeps: TaskToolDeps = { db: deps.db, ...deps.taskTools };
  const owner = session.grant.agentSessionId ? { agentSessionId: session.grant.agentSessionId, ownerId: session.grant.userId } : undefined;
  const server = new Server(GATEWAY_INFO, {
    capabilities: { tools: { listChanged: true } },
    instructions: "Find tools with search_tools, then call them from a program with execute_code. Calls are checked, bounded and audited by Portcullis.",
  });
  const requestCtx = (id: string | number): RequestContext => ({ ...session.ctx, requestId: mcpRequestId(session.ctx.requestId, id) });
  const access = () => sessionAccess(deps.policy, session.grant);
  const gatewayInfo = (target: string, args: Record<string, unknown>) => ({
    action: "tool.called" as const,
    endpoint: "mcp/code",
    serverSlug: "portcullis",
    target,
    argumentKeys: Object.keys(args),
    mcpSessionId: session.mcpSessionId,
  });

  /** The tools this session may call, as search_tools ranks them. */
  async function toolIndex() {
    const { mayUse } = await access();
    return cachedToolIndex((await deps.registry.visibleTools(session.bucket)).filter((t) => mayUse(t.name)));
  }

  server.setRequestHandler(ListToolsRequestSchema, (_req, extra) =>
    auditedRequest(deps, requestCtx(extra.requestId), { action: "tools.listed", endpoint: "mcp/code", serverSlug: "", target: "tools.listed", mcpSessionId: session.mcpSessionId }, () =>
      Promise.resolve({
        tools: [...codeModeToolDefinitions(deps.limits), ...(owner ? compact([...taskToolDefinitions(taskDeps.pollSeconds), ...(deps.approvals ? approvalToolDefinitions() : [])]) : [])],
      }),
    ),
  );

  server.setRequestHandler(CallToolRequestSchema, async (req, extra) => {
    const name = req.params.name;
    const args = req.params.arguments ?? {};
    const ctx = requestCtx(extra.requestId);
    const malformed = refuseInvalidToolName(deps, ctx, { endpoint: "mcp/code", serverSlug: "", mcpSessionId: session.mcpSessionId, name, arguments: args });
    if (malformed) return malformed;

    if (name === "search_tools") {
      const parsed = ZSearch.safeParse(args);
      if (!parsed.success) invalid(parsed.error);
      return auditedRequest(deps, ctx, gatewayInfo(name, args), async () => {
        const answer = (await toolIndex()).search(parsed.data.query, { detail: parsed.data.detail, limit: parsed.data.limit });
        return { content: [{ type: "text" as const, text: searchText(answer, parsed.data.detail) }] };
      });
    }

    if (name === "execute_code") {
      const parsed = ZExecute.safeParse(args);
      if (!parsed.success) invalid(parsed.error);
      const { code, timeoutMs, language, privacy } = parsed.data;
      // The program itself is kept (redacted, bounded by the writer): an incident can be read from the audit alone.
      const runInfo = { ...gatewayInfo(name, args), arguments: { code, ...(language && { language }), ...(timeoutMs !== undefined && { timeoutMs }), ...(privacy !== undefined && { privacy }) } };
      // Runs are counted per agent session (each of its tool calls is counted again by the pipeline).
      const admitted = deps.runGate && session.sessionKey ? await deps.runGate.admit(session.sessionKey) : undefined;
      if (admitted && "code" in admitted) {
        const refused = { ...runInfo, denied: { code: admitted.code, reason: admitted.message } };
        return auditedRefusal(deps, ctx, refused, () =>
          toolError(admitted.code, admitted.message, { retryAfterSeconds: admitted.retryAfterSeconds }),
        );
      }
      return auditedRequest(deps, ctx, runInfo, () =>
        cancellable(deps.bus, session.mcpSessionId, extra.requestId, extra.signal, async (signal) => {
          const { run } = await runProgram(deps, { grant: session.grant, ctx, bucket: session.bucket, sessionKey: session.sessionKey, mcpSessionId: session.mcpSessionId, signal }, code, {
            ...(timeoutMs !== undefined && { timeoutMs }),
            ...(language && { language }),
            ...(privacy !== undefined && { privacy }),
          });
          const value: Record<string, unknown> = {
            ...(run.result !== undefined && { result: run.result }),
            ...(run.error && { error: run.error }),
            logs: run.logs,
            toolCalls: run.toolCalls,
            ...(run.workspaceOps > 0 && { workspaceOps: run.workspaceOps }),
            durationMs: Math.round(run.durationMs),
            ...(run.truncated && { truncated: true }),
          };
          return asResult(value, run.error !== undefined);
        }),
      ).finally(() => admitted?.release());
    }

    if (owner && isTaskTool(name)) {
      return auditedRequest(deps, ctx, gatewayInfo(name, args), () => callTaskTool(taskDeps, ctx, owner, name, args));
    }
    if (owner && deps.approvals && isApprovalTool(name)) {
      const approvals = deps.approvals;
      const tc = taskContextOf(session.grant, "mcp/code", {})!;
      const resolve = async (n: string) => {
        const r = await deps.registry.resolveTool(n, session.bucket);
        return "error" in r ? r : r.refusal ? { error: r.refusal.message } : r.tool;
      };
      return auditedRequest(deps, ctx, gatewayInfo(name, args), () => callApprovalTool({ approvals, policy: deps.policy, resolve }, ctx, session.grant, tc, name, args));
    }
    // Upstream tools are reached from programs only: a direct call names what to do instead.
    const info = { ...gatewayInfo(name, args), serverSlug: parseGatewayName(name)?.slug ?? "", denied: { code: "unknown_tool" as const, reason: `This endpoint offers search_tools and execute_code; call ${name} from a program: await tools.<server>.<tool>(args).` } };
    return auditedRefusal(deps, ctx, info);
  });

  return server;
}
