// The MCP server behind `/mcp/code`: whatever the number of upstream tools, an agent sees only search_tools,
// browse_catalog, execute_code, request_approval and the task tools. It finds tools with search_tools (or pages
// through browse_catalog when a search misses) and calls them from a short program run by execute_code in a
// QuickJS sandbox; only what the program returns goes back to the model. Every call inside a program goes
// through the same pipeline as a direct call (whitelist, tier, rules, schema, rate limit, audit under the
// execution's request id); search_tools, browse_catalog and execute_code are themselves built-in tools, so they
// pass it too (server/builtin).
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { CallToolRequestSchema, ListToolsRequestSchema, type Tool } from "@modelcontextprotocol/sdk/types.js";
import { mcpRequestId, type RequestContext } from "../context";
import { dispatchDeps, GATEWAY_INFO, sessionToolDefinitions, type AggregateSession } from "../mcp/build-aggregate-server";
import { auditedRequest } from "../mcp/audited-request";
import { dispatchToolCall } from "../mcp/dispatch-tool-call";
import type { EndpointNaming } from "../mcp/endpoint-naming";
import { listEndpointTools } from "../mcp/list-endpoint-tools";
import { answeringPublicErrors } from "../mcp/public-error";
import type { CodeModeDeps } from "./program-runner";
import { codeModeToolDefinitions, compactTools } from "./code-mode-tool-definitions";

export type { CodeModeDeps } from "./program-runner";

/** What /mcp/code lists, made once per setting (a Server is built per HTTP request). */
const LISTED = new Map<string, Tool[]>();
function codeTools(deps: CodeModeDeps, agentSession: boolean): Tool[] {
  const key = `${JSON.stringify(deps.limits)}:${String(deps.taskTools.pollSeconds)}:${String(!!deps.approvals)}:${String(agentSession)}`;
  let tools = LISTED.get(key);
  if (!tools) LISTED.set(key, (tools = [...codeModeToolDefinitions(deps.limits), ...(agentSession ? compactTools(sessionToolDefinitions(deps)) : [])]));
  return tools;
}

/** `/mcp/code`: the gateway's own tools only; upstream tools are reached from programs. */
function codeNaming(deps: CodeModeDeps, agentSession: boolean): EndpointNaming {
  return {
    kind: "code",
    endpoint: "mcp/code",
    serverSlug: "",
    builtins: codeTools(deps, agentSession),
    expose: () => [],
    registryName: (name) => name,
    // Upstream tools are reached from programs only: a direct call names what to do instead.
    refuseDirect: (name) => `This endpoint offers search_tools and execute_code; call ${name} from a program: await tools.<server>.<tool>(args).`,
  };
}

export function buildCodeModeServer(deps: CodeModeDeps, session: AggregateSession): Server {
  const server = new Server(GATEWAY_INFO, {
    capabilities: { tools: { listChanged: true } },
    instructions: "Find tools with search_tools (browse_catalog lists servers and their tools when a search misses), then call them from a program with execute_code. Calls are checked, bounded and audited by Portcullis.",
  });
  const requestCtx = (id: string | number): RequestContext => ({ ...session.ctx, requestId: mcpRequestId(session.ctx.requestId, id) });
  const naming = codeNaming(deps, !!session.grant.agentSessionId);
  // As on /mcp: a database fault in a handler reaches the agent as "unavailable, retry", never as its own text.
  answeringPublicErrors(server, deps.logger);

  server.setRequestHandler(ListToolsRequestSchema, (_req, extra) =>
    auditedRequest(deps, requestCtx(extra.requestId), { action: "tools.listed", endpoint: "mcp/code", serverSlug: "", target: "tools.listed", mcpSessionId: session.mcpSessionId }, async () => ({
      tools: await listEndpointTools(deps, naming, session),
    })),
  );

  server.setRequestHandler(CallToolRequestSchema, (req, extra) =>
    dispatchToolCall(dispatchDeps(deps), naming, session, req.params, {
      requestId: extra.requestId,
      signal: extra.signal,
      sendProgress: (params) => extra.sendNotification({ method: "notifications/progress", params }),
    }),
  );

  return server;
}
