// `/mcp/s/<slug>`: one upstream server with its original names, relayed message by message over the
// session's own upstream connection — tools, resources, templates, subscriptions, prompts, completions,
// logging, progress, cancellation, and the upstream's requests to the agent (sampling, elicitation, roots).
// Tool calls still pass the gateway pipeline (audit, validation, limits, output bound, circuit breaker);
// prompts, reads, subscriptions and completions the request pipeline (access, limits, output bound, audit).
import type { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js";
import {
  CallToolResultSchema,
  ErrorCode,
  isJSONRPCErrorResponse,
  isJSONRPCNotification,
  isJSONRPCResultResponse,
  McpError,
  type JSONRPCMessage,
  type JSONRPCRequest,
} from "@modelcontextprotocol/sdk/types.js";
import { mcpRequestId } from "../../context";
import type { TaskToolDeps } from "../../tasks/task-tools";
import type { Logger } from "../../logger";
import { auditedRequest, listActionOf } from "../audited-request";
import { cancellable } from "../cancellation";
import { dispatchDeps, sessionToolDefinitions } from "../build-aggregate-server";
import { dispatchToolCall } from "../dispatch-tool-call";
import type { EndpointNaming } from "../endpoint-naming";
import { invalidToolNameReason } from "../../registry/gateway-name";
import type { McpSessionView } from "../handle-mcp-request";
import { sessionOwner } from "./reserve-upstream";
import type { InFlight, LiveSession } from "./session-upstreams";
import { capacityRefusal } from "./capacity-refusal";
import { relayRequest } from "./relay-request";
import { transparentTasks } from "./transparent-tasks";
import type { TransparentDeps } from "./transparent-deps";
import { UpstreamAuthRequiredError } from "../../upstream-auth/upstream-auth-required-error";
import { authRequiredRpcError } from "../connect-elicitation";
import { findListedTool } from "../../pipeline/shared-tool-listing";
import { publicError } from "../public-error";

export type { TransparentDeps } from "./transparent-deps";

type Params = Record<string, unknown> & { _meta?: { progressToken?: string | number } & Record<string, unknown> };

/** A string parameter, or "" when absent or not a string. */
const str = (v: unknown): string => (typeof v === "string" ? v : "");

function toJsonRpcError(thrown: unknown, log: Logger): { code: number; message: string; data?: unknown } {
  // A database fault is logged here with its cause (the agent hears only that the gateway failed).
  const err = publicError(thrown, log);
  // The message keeps its "MCP error <code>: " prefix here: the transport takes it off (unprefixed-errors.ts).
  if (err instanceof McpError) return { code: err.code, message: err.message, ...(err.data !== undefined && { data: err.data }) };
  return { code: ErrorCode.InternalError, message: err instanceof Error ? err.message : String(err) };
}

const MAX_NAME_CHARS = 128;

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
        reply = { error: toJsonRpcError(err, log) };
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

  const taskDeps: TaskToolDeps = { db: deps.db, audit: deps.audit, ...deps.taskTools };
  const owner = view.grant.agentSessionId ? { agentSessionId: view.grant.agentSessionId, ownerId: view.grant.userId } : undefined;
  const answerTasks = (request: JSONRPCRequest) => (owner ? transparentTasks(taskDeps, view, owner, request) : Promise.resolve(undefined));

  const sendProgress = (request: JSONRPCRequest) => (params: Record<string, unknown>) =>
    transport.send({ jsonrpc: "2.0", method: "notifications/progress", params }, { relatedRequestId: request.id });

  /** The server's tools under their own names, and the task and approval tools for an agent session. */
  const naming: EndpointNaming = {
    kind: "server",
    endpoint,
    serverSlug: slug,
    // A name as the upstream knows it: at most 128 characters (its gateway name adds the slug).
    maxNameChars: MAX_NAME_CHARS,
    builtins: owner ? sessionToolDefinitions(deps) : [],
    expose: (tools) => tools.filter((t) => t.name.startsWith(`${slug}__`)).map((t) => ({ ...t, name: t.name.slice(slug.length + 2) })),
    registryName: (name) => `${slug}__${name}`,
    unknown: (error) => error.replace(`${slug}__`, ""),
  };

  /** tools/call: a built-in tool in process; an upstream tool over the session's own upstream connection. */
  function callTool(request: JSONRPCRequest, live?: LiveSession): Promise<Record<string, unknown>> {
    const params = (request.params ?? {}) as Params & { name?: unknown; arguments?: Record<string, unknown> };
    const via: EndpointNaming["via"] = live
      ? (tool, onprogress) =>
          Object.assign(
            async (s: AbortSignal, checked: Record<string, unknown>) =>
              CallToolResultSchema.parse(await deps.sessions.forward(live, "tools/call", { ...params, name: tool.name, arguments: checked }, { signal: s, timeoutMs: tool.timeoutMs, onprogress })),
            // The credential the session's requests carry, for the call's audit event.
            { credential: live.bearer?.ref },
          )
      : undefined;
    const offered: EndpointNaming["offered"] = live ? (tool) => (s) => findListedTool(live.client, tool.name, s, tool.timeoutMs) : undefined;
    return dispatchToolCall(dispatchDeps(deps), { ...naming, via, offered }, view, { ...params, name: str(params.name) }, { requestId: request.id, sendProgress: sendProgress(request) });
  }

  async function answer(request: JSONRPCRequest): Promise<Record<string, unknown>> {
    if (request.method === "ping") return {};
    if (request.method === "tools/call") {
      // The gateway's own tools, and names that cannot name a tool, are answered without the upstream.
      const name = str(request.params?.name);
      if (naming.builtins.some((t) => t.name === name) || invalidToolNameReason(name, MAX_NAME_CHARS) !== null) return callTool(request);
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
      // The user has no usable credential for this upstream (issue 22): a tools/call goes the pipeline's way
      // without a session of its own, to be refused (and audited) upstream_auth_required like on /mcp.
      if (err instanceof UpstreamAuthRequiredError) {
        if (request.method === "tools/call") return callTool(request);
        throw authRequiredRpcError(err, view.clientCapabilities);
      }
      throw new McpError(ErrorCode.InternalError, `The upstream server ${slug} is unavailable: ${err instanceof Error ? err.message : String(err)}`);
    }
    try {
      const run = () =>
        request.method === "tools/call" ? callTool(request, live) : cancellable(deps.bus, view.mcpSessionId, request.id, undefined, (signal) => relayRequest({ deps, slug, endpoint, view, naming, owner, sendProgress: sendProgress(request) }, request, route, live, signal));
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
}
