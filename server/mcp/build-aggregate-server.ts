// The MCP server behind `/mcp`: every enabled tool, prompt and resource template of every upstream as
// `<server-slug>__<name>` (resources keep their URIs and are routed by them), each tool call through the gateway
// pipeline, each prompt, read and completion through the request pipeline. Built per HTTP request; all state
// lives in the registry and PostgreSQL.
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
  ResultSchema,
  SetLevelRequestSchema,
  type ClientCapabilities,
  type ClientRequest,
  type Tool,
} from "@modelcontextprotocol/sdk/types.js";
import { mcpRequestId, type RequestContext } from "../context";
import type { AuditWriter } from "../audit/audit-writer";
import type { Db } from "../db/client";
import { approvalToolDefinitions } from "../approvals/approval-tools";
import type { Approvals } from "../approvals/approvals";
import { mcpTaskStore, TASK_CAPABILITIES, taskToolDefinitions, type TaskToolDeps } from "../tasks/task-tools";
import type { ChangeBus } from "../events/change-bus";
import type { Logger } from "../logger";
import { answeringPublicErrors } from "./public-error";
import type { Operation, OperationHandler, UpstreamSend } from "../pipeline/operation";
import type { CallToolHandler } from "../pipeline/types";
import type { SessionGrant } from "../policy/evaluate";
import type { PolicyCache } from "../policy/policy-cache";
import { sessionAccess } from "../policy/session-access";
import type { Registry, ServerRoute } from "../registry/create-registry";
import { parseGatewayName } from "../registry/gateway-name";
import type { UpstreamPool } from "../upstream/upstream-pool";
import { VERSION } from "../version";
import { auditedRequest, type ListAction } from "./audited-request";
import type { DirectToolCall } from "./direct-tool-call";
import { dispatchToolCall, type DispatchDeps } from "./dispatch-tool-call";
import { callIdentity } from "../pipeline/call-identity";
import { UpstreamAuthRequiredError } from "../upstream-auth/upstream-auth-required-error";
import { authRequiredRpcError } from "./connect-elicitation";
import { listEndpointTools } from "./list-endpoint-tools";
import type { VirtualView } from "../virtual/virtual-view";
import { aggregateView, virtualView, type EndpointView } from "./endpoint-view";

export type AggregateSession = {
  bucket: number;
  ctx: RequestContext;
  sessionKey: string;
  mcpSessionId: string;
  grant: SessionGrant;
  clientCapabilities?: ClientCapabilities | undefined;
  /** A 2026-07-28 request: whether it declared the tasks extension (undefined: a 2025 session). */
  tasksExtension?: boolean | undefined;
};

export type AggregateDeps = {
  registry: Registry;
  pipeline: CallToolHandler;
  /** Prompts, resource reads and completions (pipeline/build-request-pipeline.ts). */
  requests: OperationHandler;
  pool: UpstreamPool;
  bus: ChangeBus;
  db: Db;
  /** The gateway's audit writer (created once by createGateway). */
  audit: AuditWriter;
  logger: Logger;
  policy: PolicyCache;
  taskTools: Omit<TaskToolDeps, "db" | "audit">;
  /** request_approval / get_approval_status (absent: the endpoint does not offer them). */
  approvals?: Approvals | undefined;
  /** Settles once the built-in server (the gateway's own tools) exists in the registry. */
  builtinReady?: (() => Promise<void>) | undefined;
};

/** What every endpoint's tools/call needs from the gateway. */
export const dispatchDeps = (deps: Omit<DispatchDeps, "pollSeconds"> & Pick<AggregateDeps, "taskTools">): DispatchDeps => ({ ...deps, pollSeconds: deps.taskTools.pollSeconds });

/** The task tools, and the approval tools where there are approvals: what an agent session gets on /mcp and /mcp/s. */
export function sessionToolDefinitions(deps: Pick<AggregateDeps, "taskTools" | "approvals">): Tool[] {
  // A Server is built per HTTP request: the definitions are made once per setting, not per request.
  const key = `${String(deps.taskTools.pollSeconds)}:${String(!!deps.approvals)}`;
  let defs = SESSION_TOOLS.get(key);
  if (!defs) SESSION_TOOLS.set(key, (defs = [...taskToolDefinitions(deps.taskTools.pollSeconds), ...(deps.approvals ? approvalToolDefinitions() : [])]));
  return defs;
}
const SESSION_TOOLS = new Map<string, Tool[]>();

/** `/mcp`, or a virtual server's `/mcp/v/<name>` when `virtual` is given (endpoint-view.ts). */
function endpointView(deps: AggregateDeps, agentSession: boolean, virtual: VirtualView | undefined): EndpointView {
  const builtins = agentSession ? sessionToolDefinitions(deps) : [];
  return virtual ? virtualView(virtual, builtins) : aggregateView(builtins);
}

export const GATEWAY_INFO = { name: "portcullis", title: "Portcullis MCP gateway", version: VERSION };

/** One validator for every per-request Server: building an Ajv per request was 7 % of the gateway's CPU. */
const SHARED_VALIDATOR = new AjvJsonSchemaValidator();

/** Which server offers the resource `uri`: listed URIs first, then resource templates. */
function serverForUri(routes: ServerRoute[], uri: string): ServerRoute | undefined {
  return (
    routes.find((r) => r.defs.resources.some((res) => res.uri === uri)) ??
    routes.find((r) => r.defs.resourceTemplates.some((t) => new UriTemplate(t.uriTemplate).match(uri) !== null))
  );
}

/** `/mcp`'s (or a virtual server's) tools/call: what the SDK Server's handler runs, and the direct path (direct-tool-call.ts) too. */
export function aggregateToolCall(deps: AggregateDeps, session: AggregateSession, virtual?: VirtualView): DirectToolCall {
  const { naming } = endpointView(deps, !!session.grant.agentSessionId, virtual);
  return (params, io) => dispatchToolCall(dispatchDeps(deps), naming, session, params, io);
}

export function buildAggregateServer(deps: AggregateDeps, session: AggregateSession, virtual?: VirtualView): Server {
  const view = endpointView(deps, !!session.grant.agentSessionId, virtual);
  const { naming } = view;
  const taskDeps: TaskToolDeps = { db: deps.db, audit: deps.audit, ...deps.taskTools };
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
    instructions: view.instructions,
  });
  // A database fault in a handler reaches the agent as a plain internal error, never as the database's text.
  answeringPublicErrors(server, deps.logger);
  const requestCtx = (id: string | number) => ({ ...session.ctx, requestId: mcpRequestId(session.ctx.requestId, id) });
  const routes = () => deps.registry.visibleServers(session.bucket);
  // An upstream that authenticates its callers answers with the session's user's credential (issue 22).
  const upstream = <T>(route: ServerRoute, signal: AbortSignal, fn: (client: Client) => Promise<T>) =>
    deps.pool.request(route.serverId, route.role, (conn) => fn(conn.client), signal, callIdentity(route.serverId, session.ctx, session.sessionKey)).catch((err: unknown) => {
      throw err instanceof UpstreamAuthRequiredError ? authRequiredRpcError(err, session.clientCapabilities) : err;
    });
  /** The route found by URI, with this process's pool connected to it (another process may have added it). */
  const pooled = async (route: ServerRoute | undefined) => (route ? ((await deps.registry.resolveServer(route.slug, session.bucket, { pooled: true })) ?? undefined) : undefined);

  // Least privilege: what the session may not use is not listed either (tools and prompts by the tool
  // whitelist, resources by the path whitelist), and a call or read of it is refused.
  const access = () => sessionAccess(deps.policy, session.grant);

  /**
   * Prompts, reads and completions: named here, then through the request pipeline (access, rate limit, output
   * bound, audit) to the route's pooled connection (or to `send`, which answers in its place).
   */
  const operation = (
    route: ServerRoute | undefined,
    extra: { requestId: string | number; signal: AbortSignal },
    op: Pick<Operation, "kind" | "target" | "subject" | "params">,
    send?: UpstreamSend,
  ) =>
    deps.requests(
      {
        ...op,
        endpoint: naming.endpoint,
        serverSlug: route?.slug ?? "",
        upstreamVersion: route?.version ?? "",
        rateLimitPerMinute: route?.rateLimitPerMinute ?? null,
        sessionKey: session.sessionKey,
        mcpSessionId: session.mcpSessionId,
        grant: session.grant,
        signal: extra.signal,
        send:
          send ??
          ((request, signal) =>
            upstream(route!, signal, (c) => c.request(request as ClientRequest, ResultSchema, { signal, timeout: route!.timeoutMs }))),
      },
      requestCtx(extra.requestId),
      {},
    );

  // Listings are audited like every other request (one event each, committed before the answer).
  const listed = <T>(action: ListAction, requestId: string | number, fn: () => Promise<T>) =>
    auditedRequest(deps, requestCtx(requestId), { action, endpoint: naming.endpoint, serverSlug: "", target: action, mcpSessionId: session.mcpSessionId }, fn);

  server.setRequestHandler(ListToolsRequestSchema, (_req, extra) =>
    listed("tools.listed", extra.requestId, async () => ({ tools: await listEndpointTools(deps, naming, session) })),
  );

  const callTool = aggregateToolCall(deps, session, virtual);
  server.setRequestHandler(CallToolRequestSchema, (req, extra) =>
    callTool(req.params, {
      requestId: extra.requestId,
      signal: extra.signal,
      sendProgress: (params) => extra.sendNotification({ method: "notifications/progress", params }),
    }),
  );

  server.setRequestHandler(ListPromptsRequestSchema, (_req, extra) =>
    listed("prompts.listed", extra.requestId, async () => {
      const { mayUse } = await access();
      // Filtered by the gateway name (what grants name), then listed as this endpoint names it.
      const prompts = (await routes()).flatMap((r) =>
        r.defs.prompts.flatMap((p) => {
          const gatewayName = `${r.slug}__${p.name}`;
          const here = mayUse(gatewayName) && view.prompt(gatewayName);
          return here ? [{ ...p, ...here }] : [];
        }),
      );
      return { prompts };
    }),
  );

  server.setRequestHandler(GetPromptRequestSchema, async (req, extra) => {
    const gatewayName = view.promptGatewayName(req.params.name);
    const parsed = gatewayName === null ? null : parseGatewayName(gatewayName);
    const route = parsed && (await deps.registry.resolveServer(parsed.slug, session.bucket, { pooled: true }));
    if (!parsed || !route || !route.defs.prompts.some((p) => p.name === parsed.tool)) {
      throw new McpError(ErrorCode.InvalidParams, `Unknown prompt ${req.params.name}. List the prompts to see what you can get.`);
    }
    // The access step checks the gateway name, as grants name prompts.
    const subject = { prompt: gatewayName! };
    return operation(route, extra, { kind: "prompt", target: req.params.name, subject, params: { ...req.params, name: parsed.tool } });
  });

  server.setRequestHandler(ListResourcesRequestSchema, (_req, extra) =>
    listed("resources.listed", extra.requestId, async () => {
      const { mayRead } = await access();
      const resources = (await routes()).flatMap((r) =>
        r.defs.resources.flatMap((res) => {
          const here = mayRead(res.uri) && view.resource(r.slug, res.uri);
          return here ? [{ ...res, name: `${r.slug}__${res.name}`, ...here }] : [];
        }),
      );
      return { resources };
    }),
  );

  server.setRequestHandler(ListResourceTemplatesRequestSchema, (_req, extra) =>
    listed("resource_templates.listed", extra.requestId, async () => ({
      resourceTemplates: view.templates ? (await routes()).flatMap((r) => r.defs.resourceTemplates.map((t) => ({ ...t, name: `${r.slug}__${t.name}` }))) : [],
    })),
  );

  server.setRequestHandler(ReadResourceRequestSchema, async (req, extra) => {
    // The path step comes before the lookup's answer: a session learns nothing about what lies outside its
    // paths, not even whether it exists. A URI no server offers is refused by the executor, audited.
    const uri = req.params.uri;
    const found = serverForUri(await routes(), uri);
    // On a virtual server only a member resource, as offered by its own server, is read.
    const route = await pooled(found && (view.templates || view.resource(found.slug, uri)) ? found : undefined);
    const notFound = () => Promise.reject(new McpError(-32002, `Resource not found: ${uri}. List the resources and templates to see what you can read.`));
    return operation(route, extra, { kind: "resource.read", target: uri, subject: { uri }, params: req.params }, route ? undefined : notFound);
  });

  server.setRequestHandler(CompleteRequestSchema, async (req, extra) => {
    const ref = req.params.ref;
    let route: ServerRoute | null | undefined;
    let upstreamRef = ref;
    let subject: { prompt: string } | undefined;
    if (ref.type === "ref/prompt") {
      const gatewayName = view.promptGatewayName(ref.name);
      if (gatewayName !== null) subject = { prompt: gatewayName };
      const parsed = gatewayName === null ? null : parseGatewayName(gatewayName);
      route = parsed && (await deps.registry.resolveServer(parsed.slug, session.bucket, { pooled: true }));
      if (parsed) upstreamRef = { ...ref, name: parsed.tool };
    } else if (view.templates) {
      route = await pooled((await routes()).find((r) => r.defs.resourceTemplates.some((t) => t.uriTemplate === ref.uri)));
    }
    if (!route || !route.defs.capabilities.completions) return { completion: { values: [], hasMore: false } };
    const target = ref.type === "ref/prompt" ? ref.name : ref.uri;
    return operation(route, extra, { kind: "completion", target, subject, params: { ...req.params, ref: upstreamRef } });
  });

  server.setRequestHandler(SetLevelRequestSchema, () => ({}));
  return server;
}
