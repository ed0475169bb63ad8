// The MCP server behind `/mcp`: every enabled tool of every upstream as `<server-slug>__<tool>`, each call
// through the gateway pipeline. Built per HTTP request; all state lives in the registry and PostgreSQL.
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import {
  CallToolRequestSchema,
  ErrorCode,
  ListToolsRequestSchema,
  McpError,
  SetLevelRequestSchema,
} from "@modelcontextprotocol/sdk/types.js";
import type { RequestContext } from "../context";
import type { CallToolHandler } from "../pipeline/types";
import type { Registry } from "../registry/create-registry";
import { VERSION } from "../version";

export type AggregateSession = { bucket: number; ctx: RequestContext; sessionKey: string };

export const GATEWAY_INFO = { name: "portcullis", title: "Portcullis MCP gateway", version: VERSION };

export function buildAggregateServer(deps: { registry: Registry; pipeline: CallToolHandler }, session: AggregateSession): Server {
  const server = new Server(GATEWAY_INFO, {
    capabilities: { tools: { listChanged: true }, logging: {} },
    instructions: "Tools from several servers, named <server>__<tool>. Calls are checked, bounded and audited by Portcullis.",
  });

  server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: await deps.registry.visibleTools(session.bucket) }));

  server.setRequestHandler(CallToolRequestSchema, async (req, extra) => {
    const resolved = await deps.registry.resolveTool(req.params.name, session.bucket);
    if ("error" in resolved) throw new McpError(ErrorCode.InvalidParams, resolved.error);
    const token = req.params._meta?.progressToken;
    return deps.pipeline(
      {
        tool: resolved.tool,
        arguments: req.params.arguments ?? {},
        meta: req.params._meta,
        endpoint: "mcp",
        sessionKey: session.sessionKey,
        signal: extra.signal,
        onProgress:
          token === undefined
            ? undefined
            : (p) => void extra.sendNotification({ method: "notifications/progress", params: { progressToken: token, ...p } }).catch(() => undefined),
      },
      { ...session.ctx, requestId: `${session.ctx.requestId}:${String(extra.requestId)}` },
      {},
    );
  });

  server.setRequestHandler(SetLevelRequestSchema, () => ({}));
  return server;
}
