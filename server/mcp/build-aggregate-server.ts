// The MCP server behind `/mcp`: every enabled tool, prompt and resource template of every upstream as
// `<server-slug>__<name>` (resources keep their URIs and are routed by them), each tool call through the gateway
// pipeline. Built per HTTP request; all state lives in the registry and PostgreSQL.
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { AjvJsonSchemaValidator } from "@modelcontextprotocol/sdk/validation/ajv-provider.js";
import { UriTemplate } from "@modelcontextprotocol/sdk/shared/uriTemplate.js";
import {
  CallToolRequestSchema,
  CompleteRequestSchema,
  ErrorCode,
  GetPromptRequestSchema,
  ListPromptsRequestSchema,
  ListResourcesRequestSchema,
  ListResourceTemplatesRequestSchema,
  ListToolsRequestSchema,
  McpError,
  ReadResourceRequestSchema,
  SetLevelRequestSchema,
} from "@modelcontextprotocol/sdk/types.js";
import { mcpRequestId, type RequestContext } from "../context";
import type { Db } from "../db/client";
import { approvalToolDefinitions, callApprovalTool, isApprovalTool } from "../approvals/approval-tools";
import type { Approvals } from "../approvals/approvals";
import { asCreateTaskResult, asTaskCapable, callTaskTool, isTaskTool, mcpTaskStore, TASK_CAPABILITIES, taskContextOf, taskToolDefinitions, type TaskToolDeps } from "../tasks/task-tools";
import type { ChangeBus } from "../events/change-bus";
import type { Logger } from "../logger";
import type { CallToolHandler } from "../pipeline/types";
import type { SessionGrant } from "../policy/evaluate";
import type { PolicyCache } from "../policy/policy-cache";
import { sessionAccess } from "../policy/session-access";
import type { Registry, ServerRoute } from "../registry/create-registry";
import { parseGatewayName } from "../registry/gateway-name";
import type { UpstreamPool } from "../upstream/upstream-pool";
import { VERSION } from "../version";
import { auditedRefusal, auditedRequest, type ListAction } from "./audited-request";
import { cancellable } from "./cancellation";
import { refuseInvalidToolName } from "./refuse-invalid-tool-name";

export type AggregateSession = { bucket: number; ctx: RequestContext; sessionKey: string; mcpSessionId: string; grant: SessionGrant };

export type AggregateDeps = {
  registry: Registry;
  pipeline: CallToolHandler;
  pool: UpstreamPool;
  bus: ChangeBus;
  db: Db;
  logger: Logger;
  policy: PolicyCache;
  taskTools: Omit<TaskToolDeps, "db">;
  /** request_approval / get_approval_status (absent: the endpoint does not offer them). */
  approvals?: Approvals | undefined;
};

export const GATEWAY_INFO = { name: "portcullis", title: "Portcullis MCP gateway", version: VERSION };

const REQUEST_TIMEOUT_MS = 30_000;
/** One validator for every per-request Server: building an Ajv per request was 7 % of the gateway's CPU. */
const SHARED_VALIDATOR = new AjvJsonSchemaValidator();

/** Which server offers the resource `uri`: listed URIs first, then resource templates. */
function serverForUri(routes: ServerRoute[], uri: string): ServerRoute | undefined {
  return (
    routes.find((r) => r.defs.resources.some((res) => res.uri === uri)) ??
    routes.find((r) => r.defs.resourceTemplates.some((t) => new UriTemplate(t.uriTemplate).match(uri) !== null))
  );
}

export function buildAggregateServer(deps: AggregateDeps, session: AggregateSession): Server {
  const taskDeps: TaskToolDeps = { db: deps.db, ...deps.taskTools };
  const owner = session.grant.agentSessionId ? { agentSessionId: session.grant.agentSessionId, ownerId: session.grant.userId } : undefined;
  const server = new Server(GATEWAY_INFO, {
    jsonSchemaValidator: SHARED_VALIDATOR,
    // MCP tasks (2025-11-25): tasks/get, tasks/result, tasks/list and tasks/cancel over the session's task rows.
    ...(owner && { taskStore: mcpTaskStore(taskDeps, session.ctx, owner) }),
    capabilities: {
      tools: { listChanged: true },
      resources: { listChanged: true },
      prompts: { listChanged: true },
      completions: {},
      logging: {},
      ...(owner && { tasks: TASK_CAPABILITIES }),
    },
    instructions:
      "Tools and prompts from several servers, named <server>__<name>; resources keep their URIs. Calls are checked, bounded and audited by Portcullis.",
  });
  const requestCtx = (id: string | number) => ({ ...session.ctx, requestId: mcpRequestId(session.ctx.requestId, id) });
  const routes = () => deps.registry.visibleServers(session.bucket);
  const upstream = <T>(route: ServerRoute, signal: AbortSignal, fn: (client: Client) => Promise<T>) =>
    deps.pool.request(route.serverId, route.role, (conn) => fn(conn.client), signal);

  // Least privilege: what the session may not use is not listed either (tools and prompts by the tool
  // whitelist, resources by the path whitelist), and a call or read of it is refused.
  const access = () => sessionAccess(deps.policy, session.grant);

  // Listings are audited like every other request (one event each, committed before the answer).
  const listed = <T>(action: ListAction, requestId: string | number, fn: () => Promise<T>) =>
    auditedRequest(deps, requestCtx(requestId), { action, endpoint: "mcp", serverSlug: "", target: action, mcpSessionId: session.mcpSessionId }, fn);

  server.setRequestHandler(ListToolsRequestSchema, (_req, extra) =>
    listed("tools.listed", extra.requestId, async () => {
      const { mayUse } = await access();
      const tools = (await deps.registry.visibleTools(session.bucket)).filter((t) => mayUse(t.name));
      return { tools: owner ? [...tools.map(asTaskCapable), ...taskToolDefinitions(taskDeps.pollSeconds), ...(deps.approvals ? approvalToolDefinitions() : [])] : tools };
    }),
  );

  server.setRequestHandler(CallToolRequestSchema, async (req, extra) => {
    const malformed = refuseInvalidToolName(deps, requestCtx(extra.requestId), { endpoint: "mcp", serverSlug: "", mcpSessionId: session.mcpSessionId, name: req.params.name, arguments: req.params.arguments });
    if (malformed) return malformed;
    const taskTool = req.params.name;
    if (owner && isTaskTool(taskTool)) {
      const info = { action: "tool.called" as const, endpoint: "mcp", serverSlug: "portcullis", target: taskTool, argumentKeys: Object.keys(req.params.arguments ?? {}), mcpSessionId: session.mcpSessionId };
      return auditedRequest(deps, requestCtx(extra.requestId), info, () => callTaskTool(taskDeps, requestCtx(extra.requestId), owner, taskTool, req.params.arguments ?? {}));
    }
    if (owner && deps.approvals && isApprovalTool(taskTool)) {
      const approvals = deps.approvals;
      const ctx = requestCtx(extra.requestId);
      const tc = taskContextOf(session.grant, "mcp", {})!;
      const info = { action: "tool.called" as const, endpoint: "mcp", serverSlug: "portcullis", target: taskTool, argumentKeys: Object.keys(req.params.arguments ?? {}), mcpSessionId: session.mcpSessionId };
      const resolve = async (name: string) => {
        const r = await deps.registry.resolveTool(name, session.bucket);
        return "error" in r ? r : r.refusal ? { error: r.refusal.message } : r.tool;
      };
      return auditedRequest(deps, ctx, info, () => callApprovalTool({ approvals, policy: deps.policy, resolve }, ctx, session.grant, tc, taskTool, req.params.arguments ?? {}));
    }
    const resolved = await deps.registry.resolveTool(req.params.name, session.bucket);
    if ("error" in resolved) {
      // A name that resolves to nothing (a typo, another case, a look-alike) is refused and kept as a security event.
      const info = { action: "tool.called" as const, endpoint: "mcp", serverSlug: parseGatewayName(req.params.name)?.slug ?? "", target: req.params.name, argumentKeys: Object.keys(req.params.arguments ?? {}), mcpSessionId: session.mcpSessionId, denied: { code: "unknown_tool" as const, reason: resolved.error } };
      return auditedRefusal(deps, requestCtx(extra.requestId), info);
    }
    const token = req.params._meta?.progressToken;
    // Progress goes out one notification at a time, and the answer after the last: each send stores its event
    // first (resumable streams), so concurrent sends could overtake one another, or the answer could close the
    // stream while a notification is still in flight.
    let progressSent: Promise<unknown> = Promise.resolve();
    const task = taskContextOf(session.grant, "mcp", req.params);
    const result = await cancellable(deps.bus, session.mcpSessionId, extra.requestId, extra.signal, (signal) =>
      deps.pipeline(
        {
          tool: resolved.tool,
          refusal: resolved.refusal,
          arguments: req.params.arguments ?? {},
          meta: req.params._meta,
          endpoint: "mcp",
          sessionKey: session.sessionKey,
          mcpSessionId: session.mcpSessionId,
          grant: session.grant,
          task,
          signal,
          onProgress:
            token === undefined
              ? undefined
              : (p) => {
                  progressSent = progressSent.then(() => extra.sendNotification({ method: "notifications/progress", params: { progressToken: token, ...p } })).catch(() => undefined);
                },
        },
        requestCtx(extra.requestId),
        {},
      ),
    );
    await progressSent;
    return req.params.task ? asCreateTaskResult(deps.db, result, taskDeps.pollSeconds) : result;
  });

  server.setRequestHandler(ListPromptsRequestSchema, (_req, extra) =>
    listed("prompts.listed", extra.requestId, async () => {
      const { mayUse } = await access();
      return { prompts: (await routes()).flatMap((r) => r.defs.prompts.map((p) => ({ ...p, name: `${r.slug}__${p.name}` }))).filter((p) => mayUse(p.name)) };
    }),
  );

  server.setRequestHandler(GetPromptRequestSchema, async (req, extra) => {
    const parsed = parseGatewayName(req.params.name);
    const route = parsed && (await deps.registry.resolveServer(parsed.slug, session.bucket));
    if (!parsed || !route || !route.defs.prompts.some((p) => p.name === parsed.tool) || !(await access()).mayUse(req.params.name)) {
      throw new McpError(ErrorCode.InvalidParams, `Unknown prompt ${req.params.name}. List the prompts to see what you can get.`);
    }
    const info = { action: "prompt.fetched" as const, endpoint: "mcp", serverSlug: route.slug, target: req.params.name, argumentKeys: Object.keys(req.params.arguments ?? {}), upstreamVersion: route.version, mcpSessionId: session.mcpSessionId };
    return auditedRequest(deps, requestCtx(extra.requestId), info, () =>
      upstream(route, extra.signal, (c) => c.getPrompt({ ...req.params, name: parsed.tool }, { signal: extra.signal, timeout: route.timeoutMs })),
    );
  });

  server.setRequestHandler(ListResourcesRequestSchema, (_req, extra) =>
    listed("resources.listed", extra.requestId, async () => {
      const { mayRead } = await access();
      return { resources: (await routes()).flatMap((r) => r.defs.resources.map((res) => ({ ...res, name: `${r.slug}__${res.name}` }))).filter((res) => mayRead(res.uri)) };
    }),
  );

  server.setRequestHandler(ListResourceTemplatesRequestSchema, (_req, extra) =>
    listed("resource_templates.listed", extra.requestId, async () => ({
      resourceTemplates: (await routes()).flatMap((r) => r.defs.resourceTemplates.map((t) => ({ ...t, name: `${r.slug}__${t.name}` }))),
    })),
  );

  server.setRequestHandler(ReadResourceRequestSchema, async (req, extra) => {
    // The path check comes first: a session learns nothing about what lies outside its paths, not even whether it exists.
    const denied = (await access()).readRefusal(req.params.uri);
    const route = serverForUri(await routes(), req.params.uri);
    if (!route && !denied) throw new McpError(-32002, `Resource not found: ${req.params.uri}. List the resources and templates to see what you can read.`);
    const info = { action: "resource.read" as const, endpoint: "mcp", serverSlug: route?.slug ?? "", target: req.params.uri, argumentKeys: ["uri"], upstreamVersion: route?.version, mcpSessionId: session.mcpSessionId, denied };
    return auditedRequest(deps, requestCtx(extra.requestId), info, () =>
      upstream(route!, extra.signal, (c) => c.readResource(req.params, { signal: extra.signal, timeout: route!.timeoutMs })),
    );
  });

  server.setRequestHandler(CompleteRequestSchema, async (req, extra) => {
    const ref = req.params.ref;
    let route: ServerRoute | null | undefined;
    let upstreamRef = ref;
    if (ref.type === "ref/prompt") {
      const parsed = parseGatewayName(ref.name);
      route = parsed && (await deps.registry.resolveServer(parsed.slug, session.bucket));
      if (parsed) upstreamRef = { ...ref, name: parsed.tool };
    } else {
      route = (await routes()).find((r) => r.defs.resourceTemplates.some((t) => t.uriTemplate === ref.uri));
    }
    if (!route || !route.defs.capabilities.completions) return { completion: { values: [], hasMore: false } };
    const info = { action: "completion.requested" as const, endpoint: "mcp", serverSlug: route.slug, target: ref.type === "ref/prompt" ? ref.name : ref.uri, argumentKeys: [req.params.argument.name], upstreamVersion: route.version, mcpSessionId: session.mcpSessionId };
    const chosen = route;
    return auditedRequest(deps, requestCtx(extra.requestId), info, () =>
      upstream(chosen, extra.signal, (c) => c.complete({ ...req.params, ref: upstreamRef }, { signal: extra.signal, timeout: REQUEST_TIMEOUT_MS })),
    );
  });

  server.setRequestHandler(SetLevelRequestSchema, () => ({}));
  return server;
}
