// `/mcp/s/<slug>`: one upstream server with its original names, relayed message by message over the
// session's own upstream connection — tools, resources, templates, subscriptions, prompts, completions,
// logging, progress, cancellation, and the upstream's requests to the agent (sampling, elicitation, roots).
// Tool calls still pass the gateway pipeline (audit, validation, limits, output bound, circuit breaker);
// reads of resources and prompts are audited.
import type { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js";
import {
  CallToolResultSchema,
  ErrorCode,
  isJSONRPCErrorResponse,
  isJSONRPCNotification,
  isJSONRPCResultResponse,
  LATEST_PROTOCOL_VERSION,
  McpError,
  SUPPORTED_PROTOCOL_VERSIONS,
  type JSONRPCMessage,
  type JSONRPCRequest,
  type LoggingLevel,
} from "@modelcontextprotocol/sdk/types.js";
import { mcpRequestId } from "../../context";
import type { Db } from "../../db/client";
import { approvalToolDefinitions, callApprovalTool, isApprovalTool } from "../../approvals/approval-tools";
import type { Approvals } from "../../approvals/approvals";
import { asCreateTaskResult, asTaskCapable, callTaskTool, isTaskTool, mcpTaskStore, TASK_CAPABILITIES, taskContextOf, taskToolDefinitions, type TaskToolDeps } from "../../tasks/task-tools";
import type { ChangeBus } from "../../events/change-bus";
import type { Logger } from "../../logger";
import type { CallToolHandler } from "../../pipeline/types";
import type { PolicyCache } from "../../policy/policy-cache";
import { sessionAccess } from "../../policy/session-access";
import type { Registry, ServerRoute } from "../../registry/create-registry";
import { auditedRefusal, auditedRequest, listActionOf, type AuditedRequestInfo } from "../audited-request";
import { refuseInvalidToolName } from "../refuse-invalid-tool-name";
import { cancellable } from "../cancellation";
import type { McpSessionView } from "../handle-mcp-request";
import { sessionOwner } from "./reserve-upstream";
import type { InFlight, LiveSession, SessionUpstreams } from "./session-upstreams";
import { capacityRefusal } from "./capacity-refusal";

export type TransparentDeps = { registry: Registry; pipeline: CallToolHandler; bus: ChangeBus; db: Db; logger: Logger; sessions: SessionUpstreams; policy: PolicyCache; taskTools: Omit<TaskToolDeps, "db">; approvals?: Approvals | undefined };

type Params = Record<string, unknown> & { _meta?: { progressToken?: string | number } & Record<string, unknown> };

/** A string parameter, or "" when absent or not a string. */
const str = (v: unknown): string => (typeof v === "string" ? v : "");

function toJsonRpcError(err: unknown): { code: number; message: string; data?: unknown } {
  // The message keeps its "MCP error <code>: " prefix here: the transport takes it off (unprefixed-errors.ts).
  if (err instanceof McpError) return { code: err.code, message: err.message, ...(err.data !== undefined && { data: err.data }) };
  return { code: ErrorCode.InternalError, message: err instanceof Error ? err.message : String(err) };
}

export function serveTransparent(deps: TransparentDeps, slug: string, view: McpSessionView, transport: WebStandardStreamableHTTPServerTransport): void {
  const log = deps.logger.child({ component: "transparent", server: slug });
  const endpoint = `mcp/s/${slug}`;

  transport.onmessage = (message: JSONRPCMessage) => {
    void receive(message).catch((err: unknown) => log.error({ err }, "transparent relay failed"));
  };

  async function receive(message: JSONRPCMessage) {
    if (isJSONRPCResultResponse(message) || isJSONRPCErrorResponse(message)) {
      await deps.sessions.replyFromAgent(view.mcpSessionId, message);
    } else if (isJSONRPCNotification(message)) {
      // `initialized` was sent by our own upstream client; `cancelled` is published by the HTTP handler.
      if (message.method === "notifications/roots/list_changed") {
        await deps.sessions.notificationFromAgent(view.mcpSessionId, message);
      }
    } else {
      const request = message as JSONRPCRequest;
      let reply: Record<string, unknown>;
      try {
        reply = { result: await answer(request) };
      } catch (err) {
        reply = { error: toJsonRpcError(err) };
      }
      await sendAnswer({ jsonrpc: "2.0", id: request.id, ...reply } as JSONRPCMessage, request.id);
    }
  }

  /**
   * Every request gets an answer: when the answer cannot be sent (its event cannot be stored), an error answer
   * is tried, and when that fails too the request's stream is closed, so the agent is never left waiting.
   */
  async function sendAnswer(answer: JSONRPCMessage, id: JSONRPCRequest["id"]) {
    try {
      await transport.send(answer);
    } catch (err) {
      log.error({ err }, "could not send an answer; sending an error instead");
      try {
        await transport.send({ jsonrpc: "2.0", id, error: { code: ErrorCode.InternalError, message: "The answer could not be sent." } });
      } catch {
        await transport.close();
      }
    }
  }

  const taskDeps: TaskToolDeps = { db: deps.db, ...deps.taskTools };
  const owner = view.grant.agentSessionId ? { agentSessionId: view.grant.agentSessionId, ownerId: view.grant.userId } : undefined;

  /** The gateway's own task tools and MCP task requests: answered here, never relayed upstream. */
  async function answerTasks(request: JSONRPCRequest): Promise<Record<string, unknown> | undefined> {
    if (!owner) return undefined;
    const params = (request.params ?? {}) as Params;
    const ctx = { ...view.ctx, requestId: mcpRequestId(view.ctx.requestId, request.id) };
    const store = mcpTaskStore(taskDeps, ctx, owner);
    const taskId = str(params.taskId);
    switch (request.method) {
      case "tools/call": {
        const name = str(params.name);
        const info = { action: "tool.called" as const, endpoint, serverSlug: "portcullis", target: name, argumentKeys: Object.keys(params.arguments ?? {}), mcpSessionId: view.mcpSessionId };
        const args = (params.arguments ?? {}) as Record<string, unknown>;
        if (deps.approvals && isApprovalTool(name)) {
          const approvals = deps.approvals;
          const tc = taskContextOf(view.grant, endpoint, {})!;
          const resolve = async (tool: string) => {
            const r = await deps.registry.resolveTool(`${slug}__${tool}`, view.bucket);
            return "error" in r ? r : r.refusal ? { error: r.refusal.message } : r.tool;
          };
          return auditedRequest(deps, ctx, info, () => callApprovalTool({ approvals, policy: deps.policy, resolve }, ctx, view.grant, tc, name, args));
        }
        if (!isTaskTool(name)) return undefined;
        return auditedRequest(deps, ctx, info, () => callTaskTool(taskDeps, ctx, owner, name, args));
      }
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

  async function answer(request: JSONRPCRequest): Promise<Record<string, unknown>> {
    if (request.method === "ping") return {};
    if (request.method === "tools/call") {
      const params = (request.params ?? {}) as Params;
      const ctx = { ...view.ctx, requestId: mcpRequestId(view.ctx.requestId, request.id) };
      // A name as the upstream knows it: at most 128 characters (its gateway name adds the slug).
      const malformed = refuseInvalidToolName(deps, ctx, { endpoint, serverSlug: slug, mcpSessionId: view.mcpSessionId, name: str(params.name), arguments: params.arguments, maxChars: 128 });
      if (malformed) return await malformed;
    }
    const own = await answerTasks(request);
    if (own) return own;
    const route = await deps.registry.resolveServer(slug, view.bucket);
    if (!route) throw new McpError(ErrorCode.ConnectionClosed, `The server ${slug} is disabled or has been removed.`);
    const inFlight: InFlight = { requestId: request.id, transport, sent: Promise.resolve() };
    let live: LiveSession;
    try {
      live = await deps.sessions.get(view.mcpSessionId, route, view.clientCapabilities, view.isNew, sessionOwner(view), inFlight);
    } catch (err) {
      const refused = capacityRefusal(deps, view, endpoint, slug, request, err);
      if (refused) return refused;
      throw new McpError(ErrorCode.InternalError, `The upstream server ${slug} is unavailable: ${err instanceof Error ? err.message : String(err)}`);
    }
    try {
      const run = () => cancellable(deps.bus, view.mcpSessionId, request.id, undefined, (signal) => dispatch(request, route, live, signal));
      // Listings are audited like every other request (tools/call, reads and prompts audit themselves).
      const listing = listActionOf(request.method);
      if (!listing) return await run();
      const ctx = { ...view.ctx, requestId: mcpRequestId(view.ctx.requestId, request.id) };
      return await auditedRequest(deps, ctx, { action: listing, endpoint, serverSlug: slug, target: request.method, upstreamVersion: route.version, mcpSessionId: view.mcpSessionId }, run);
    } finally {
      // The notifications relayed for this request (logging, …) go out before its answer.
      await inFlight.sent;
      live.inFlight.splice(live.inFlight.indexOf(inFlight), 1);
      live.lastUsedAt = Date.now();
    }
  }

  async function dispatch(request: JSONRPCRequest, route: ServerRoute, live: LiveSession, signal: AbortSignal): Promise<Record<string, unknown>> {
    const params = (request.params ?? {}) as Params;
    const ctx = { ...view.ctx, requestId: mcpRequestId(view.ctx.requestId, request.id) };
    const progressToken = params._meta?.progressToken;
    // Progress goes out one notification at a time, and the answer after the last: each send stores its event
    // first (resumable streams), so concurrent sends could overtake one another, or the answer could close the
    // stream while a notification is still in flight.
    let progressSent: Promise<unknown> = Promise.resolve();
    const onprogress =
      progressToken === undefined
        ? undefined
        : (p: { progress: number; total?: number | undefined; message?: string | undefined }) => {
            progressSent = progressSent
              .then(() => transport.send({ jsonrpc: "2.0", method: "notifications/progress", params: { ...p, progressToken } }, { relatedRequestId: request.id }))
              .catch(() => undefined);
          };
    const forward = async () => {
      try {
        return await deps.sessions.forward(live, request.method, params, { signal, timeoutMs: route.timeoutMs, onprogress });
      } finally {
        await progressSent;
      }
    };
    const audited = (info: Omit<AuditedRequestInfo, "endpoint" | "serverSlug" | "upstreamVersion" | "mcpSessionId">) =>
      auditedRequest(deps, ctx, { ...info, endpoint, serverSlug: slug, upstreamVersion: route.version, mcpSessionId: view.mcpSessionId }, forward);
    // Least privilege as on /mcp: tools and prompts by the session's tool whitelist (under their gateway names),
    // resources by its path whitelist; what may not be used is neither listed nor reached.
    const access = await sessionAccess(deps.policy, view.grant);
    const mayUse = (name: string) => access.mayUse(`${slug}__${name}`);
    const { mayRead, readRefusal } = access;

    switch (request.method) {
      case "initialize": {
        const requested = str(params.protocolVersion);
        const { tasks: _tasks, ...capabilities } = live.client.getServerCapabilities() ?? {};
        const instructions = live.client.getInstructions();
        return {
          protocolVersion: SUPPORTED_PROTOCOL_VERSIONS.includes(requested) ? requested : LATEST_PROTOCOL_VERSION,
          // The gateway decides which tools are listed, and tells the agent when that changes.
          // Tasks are the gateway's own (its rows, its tools), whatever the upstream offers.
          capabilities: { ...capabilities, ...(capabilities.tools && { tools: { ...capabilities.tools, listChanged: true } }), ...(owner && { tasks: TASK_CAPABILITIES }) },
          serverInfo: live.client.getServerVersion() ?? route.defs.serverInfo,
          ...(instructions && { instructions }),
        };
      }
      case "tools/list": {
        const prefix = `${slug}__`;
        const tools = (await deps.registry.visibleTools(view.bucket))
          .filter((t) => t.name.startsWith(prefix))
          .map((t) => ({ ...t, name: t.name.slice(prefix.length) }))
          .filter((t) => mayUse(t.name));
        return { tools: owner ? [...tools.map(asTaskCapable), ...taskToolDefinitions(taskDeps.pollSeconds), ...(deps.approvals ? approvalToolDefinitions() : [])] : tools };
      }
      case "tools/call": {
        const name = str(params.name);
        const resolved = await deps.registry.resolveTool(`${slug}__${name}`, view.bucket);
        if ("error" in resolved) {
          const denied = { code: "unknown_tool" as const, reason: resolved.error.replace(`${slug}__`, "") };
          return auditedRefusal(deps, ctx, { action: "tool.called", endpoint, serverSlug: slug, target: name, argumentKeys: Object.keys(params.arguments ?? {}), mcpSessionId: view.mcpSessionId, denied });
        }
        const args = (params.arguments ?? {}) as Record<string, unknown>;
        const result = await deps.pipeline(
          {
            tool: resolved.tool,
            refusal: resolved.refusal,
            arguments: args,
            meta: params._meta,
            endpoint: "server",
            sessionKey: view.sessionKey,
            mcpSessionId: view.mcpSessionId,
            grant: view.grant,
            task: taskContextOf(view.grant, endpoint, params),
            signal,
            via: async (s, checked) =>
              CallToolResultSchema.parse(
                await deps.sessions.forward(live, "tools/call", { ...params, name: resolved.tool.name, arguments: checked }, { signal: s, timeoutMs: resolved.tool.timeoutMs, onprogress }),
              ),
          },
          ctx,
          {},
        );
        await progressSent;
        return params.task ? asCreateTaskResult(deps.db, result, taskDeps.pollSeconds) : result;
      }
      case "logging/setLevel": {
        const result = await forward();
        await deps.sessions.saveState(view.mcpSessionId, { logLevel: params.level as LoggingLevel });
        return result;
      }
      case "resources/subscribe":
      case "resources/unsubscribe": {
        const uri = str(params.uri);
        const refused = readRefusal(uri);
        if (refused) throw new McpError(ErrorCode.InvalidParams, `[${refused.code}] ${refused.reason}`);
        const result = await forward();
        await deps.sessions.saveState(view.mcpSessionId, request.method === "resources/subscribe" ? { subscribe: uri } : { unsubscribe: uri });
        return result;
      }
      case "resources/read":
        return audited({ action: "resource.read", target: str(params.uri), argumentKeys: ["uri"], denied: readRefusal(str(params.uri)) });
      case "resources/list": {
        const result = (await forward()) as { resources?: { uri: string }[] };
        return { ...result, resources: (result.resources ?? []).filter((r) => mayRead(r.uri)) };
      }
      case "prompts/list": {
        const result = (await forward()) as { prompts?: { name: string }[] };
        return { ...result, prompts: (result.prompts ?? []).filter((p) => mayUse(p.name)) };
      }
      case "prompts/get": {
        const name = str(params.name);
        const denied = mayUse(name) ? undefined : { code: "tool_not_allowed" as const, reason: `This session may not use the prompt ${name}: it is not on the session's whitelist.` };
        return audited({ action: "prompt.fetched", target: name, argumentKeys: Object.keys(params.arguments ?? {}), denied });
      }
      case "completion/complete": {
        const ref = (params.ref ?? {}) as { name?: string; uri?: string };
        return audited({ action: "completion.requested", target: ref.name ?? ref.uri ?? "", argumentKeys: [str((params.argument as { name?: unknown } | undefined)?.name)] });
      }
      default:
        // Listings (resources, templates, prompts) and anything newer than this gateway: as they are.
        return forward();
    }
  }
}
