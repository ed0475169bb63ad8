// HTTP side of the gateway endpoints (Streamable HTTP, protocol 2025-06-18 and 2025-11-25). Sessions are
// ours (PostgreSQL rows), so the SDK transport runs stateless, one per request, on any process; what one
// process must tell another (cancellations, answers to relayed requests, GET-stream messages) goes over the
// change bus.
import { DATABASE_RETRY_AFTER_SECONDS, isDatabaseUnavailable } from "../db/database-unavailable";
import { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js";
import type { ClientCapabilities, InitializeRequest, JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";
import type { RequestContext } from "../context";
import type { Db } from "../db/client";
import type { Logger } from "../logger";
import { isGatewayError, type GatewayError } from "../errors";
import type { ChangeBus } from "../events/change-bus";
import type { SessionGrant } from "../policy/evaluate";
import type { AgentPrincipal } from "../sessions/session-auth";
import { closeMcpSession, createMcpSession, findMcpSession, newSessionId, type McpSessionCache } from "./mcp-sessions";
import { answerToolCall, directToolCallOf, type DirectToolCall } from "./direct-tool-call";
import { isCancellation, isInitialize, malformedBody } from "./malformed-body";
import { createStreamEventStore, resumeStream, SSE_RETRY_MS } from "./stream-events";
import { sendingUnprefixedErrors } from "./unprefixed-errors";
import { authenticateMcpRequest, scopeRefusal, type McpOAuth } from "./authenticate-mcp-request";
import { jsonRpcError } from "./json-rpc-error";
import { sessionScopeRefusal } from "./session-scope-refusal";
import { GATEWAY_REFUSAL_RPC_CODE } from "./gateway-refusal-code";
import { endpointName, type McpEndpoint } from "./mcp-endpoint";
import type { JsonAnswer, McpRequest } from "./mcp-request";
import { notificationStream } from "./notification-stream";
import { rebindingRefusal } from "./rebinding-refusal";
import { isModernHeader, isModernRequest } from "./modern/is-modern-request";
import { INNER_PROTOCOL_VERSION } from "./modern/modern-protocol";
import { checkModernRequest, paramHeaderCheck, serveModernRequest } from "./modern/serve-modern-request";
import { innerHeaders, stateBinding, statelessView } from "./modern/stateless-view";
import type { MrtrContext } from "./modern/answer-modern-stream";
import type { RequestStates } from "./modern/request-state";
import type { StatelessLeases } from "./modern/stateless-leases";
import type { ListenStreams } from "./modern/listen-streams";
import type { Look } from "./modern/listen-stream";
import { serveListen } from "./modern/serve-listen";
import { innerAnswer } from "./modern/inner-answer";
import { answerModernTask } from "./modern/answer-modern-task";
import { declaresTasks, TASK_METHODS, type ModernTaskDeps } from "./modern/tasks-extension";
import { VERSION } from "../version";

export { endpointName, type McpEndpoint } from "./mcp-endpoint";
export { rebindingRefusal } from "./rebinding-refusal";

/** What a request handler knows about the MCP session it serves. */
export type McpSessionView = {
  mcpSessionId: string;
  /** True for the request that initializes the session (its row is written once the answer is ready). */
  isNew: boolean;
  bucket: number;
  /** Agent session (when there is one) or MCP session: the key for canary routing and per-session limits. */
  sessionKey: string;
  ctx: RequestContext;
  clientCapabilities: ClientCapabilities;
  /** What the agent session may use: tools it may not call are neither listed nor callable. */
  grant: SessionGrant;
  /** A 2026-07-28 request: whether it declared the tasks extension (undefined: a 2025 session). */
  tasksExtension?: boolean | undefined;
};

export type McpHttpDeps = {
  db: Db;
  /** This process's cache of open sessions (created once by createGateway). */
  sessionCache: McpSessionCache;
  bus: ChangeBus;
  /** An agent session token (pcs_…) to its session; throws `invalid_token` with the reason. */
  authenticate(token: string): Promise<AgentPrincipal>;
  /** Enterprise mode: OAuth access tokens of the configured authorization server (absent: pcs_ tokens only). */
  oauth?: McpOAuth | undefined;
  /** False when the endpoint does not exist for this caller (unknown or disabled server): 404. */
  endpointExists(endpoint: McpEndpoint): Promise<boolean>;
  /** A virtual server's id by name (null: none): what a session scoped to a virtual server is checked against. */
  virtualServerId?(name: string): Promise<string | null>;
  /** Attaches the endpoint's message handling (an SDK Server, or the transparent relay) to this request's transport. */
  serve(endpoint: McpEndpoint, session: McpSessionView, transport: WebStandardStreamableHTTPServerTransport): Promise<void>;
  /** Which stateless upstream session a 2026 request on /mcp/s may use (one request at a time on each). */
  statelessLeases: StatelessLeases;
  /** The tasks extension's methods (tasks/get, tasks/update, tasks/cancel) over the task rows. */
  modernTasks: ModernTaskDeps;
  /** MRTR: held continuations, and the way a client's input reaches the relayed request that asked for it. */
  mrtr?: Omit<NonNullable<MrtrContext["mrtr"]>, "binding"> | undefined;
  /** The signer of a 2026 upstream's wrapped requestState (upstream-state.ts), loaded with the deployment's key. */
  upstreamStates?: (() => Promise<RequestStates>) | undefined;
  /** subscriptions/listen: this process's open streams, and what an agent session sees on an endpoint now. */
  listen?: { streams: ListenStreams; look(endpoint: McpEndpoint, grant: SessionGrant, bucket: number): ReturnType<Look> } | undefined;
  /** A tool's input schema by the name the endpoint's clients call it (its Mcp-Param-* headers are checked against it). */
  toolInputSchema?(endpoint: McpEndpoint, name: string, bucket: number): Promise<unknown>;
  /** The endpoint's plain tools/call, answered without the SDK's per-request Server and transport (direct-tool-call.ts). */
  directToolCall?(endpoint: McpEndpoint, session: McpSessionView): DirectToolCall | undefined;
  /** An initialize the transport refused (its answer not 200): what `serve` set aside for the session is given up. */
  abandon?(endpoint: McpEndpoint, session: McpSessionView): void;
  maxRequestBytes: number;
  /** Host names allowed besides IP literals and localhost (see rebindingRefusal). */
  allowedHosts: readonly string[];
  /** Where a request that failed unexpectedly is logged (it is answered with a JSON-RPC internal error). */
  logger?: Logger | undefined;
};

/** A GatewayError as the HTTP answer: its status, Retry-After, and its stable code in the JSON-RPC error's data. */
function gatewayRefusal(err: GatewayError, id: unknown): Response {
  const data = { code: err.code, ...(err.details as object | undefined), ...(err.retryAfterSeconds !== undefined && { retryAfterSeconds: err.retryAfterSeconds }) };
  return new Response(JSON.stringify({ jsonrpc: "2.0", error: { code: GATEWAY_REFUSAL_RPC_CODE, message: err.message, data }, id }), {
    status: err.status,
    headers: { "content-type": "application/json", ...(err.retryAfterSeconds !== undefined && { "retry-after": String(err.retryAfterSeconds) }) },
  });
}

/**
 * Handles one HTTP request to an MCP endpoint; whatever fails, the answer is a JSON-RPC error. `body`: the
 * request's body already read (the node adapter's), else it is read from `req`.
 */
export async function answerMcpRequest(deps: McpHttpDeps, req: McpRequest, endpoint: McpEndpoint, body?: string): Promise<Response | JsonAnswer> {
  try {
    return await serveMcpRequest(deps, req, endpoint, body);
  } catch (err) {
    const requestId = req.headers.get("x-request-id") ?? crypto.randomUUID();
    // The database down or restarting is not the request's fault: "retry shortly" (503 + Retry-After), which
    // balancers and clients act on, rather than a 500.
    if (isDatabaseUnavailable(err)) {
      deps.logger?.warn({ err, requestId, endpoint: endpointName(endpoint) }, "MCP request refused: the database is unavailable");
      return jsonRpcError(503, -32603, `The gateway's database is unavailable; retry shortly (request ${requestId}).`, { "retry-after": String(DATABASE_RETRY_AFTER_SECONDS) });
    }
    deps.logger?.error({ err, requestId, endpoint: endpointName(endpoint) }, "MCP request failed");
    return jsonRpcError(500, -32603, `Internal error (request ${requestId})`);
  }
}

async function serveMcpRequest(deps: McpHttpDeps, req: McpRequest, endpoint: McpEndpoint, preread: string | undefined): Promise<Response | JsonAnswer> {
  const refusal = rebindingRefusal(req, deps.allowedHosts);
  if (refusal) return jsonRpcError(403, -32000, refusal);
  const principal = await authenticateMcpRequest(deps, req, endpoint);
  if (principal instanceof Response) return principal;
  const { user, session: agentSession, grant } = principal;
  const name = endpointName(endpoint);
  if (!(await deps.endpointExists(endpoint))) {
    return jsonRpcError(404, -32001, endpoint.kind === "server" ? `Unknown or disabled server "${endpoint.slug}"` : endpoint.kind === "virtual" ? `Unknown virtual server "${endpoint.name}"` : "Not found");
  }
  const outOfBounds = await sessionScopeRefusal(deps, agentSession.virtualServerId, endpoint);
  if (outOfBounds) return outOfBounds;
  const requestId = req.headers.get("x-request-id") ?? crypto.randomUUID();
  const ctx: RequestContext = { actor: { type: "user", userId: user.id, email: user.email, role: user.role }, requestId, via: "agent_token", agent: { agentId: agentSession.agentId, agentSessionId: agentSession.id }, ip: req.headers.get("x-forwarded-for")?.split(",")[0]?.trim(), ...("subjectToken" in principal && { subjectToken: principal.subjectToken }) };
  const sessionId = req.headers.get("mcp-session-id");

  // The 2026-07-28 generation has no GET stream and no sessions to delete.
  if ((req.method === "GET" || req.method === "DELETE") && isModernHeader(req.headers)) {
    return jsonRpcError(405, -32000, `Method not allowed: protocol ${req.headers.get("mcp-protocol-version") ?? ""} is served over POST only`, { allow: "POST" });
  }

  if (req.method === "DELETE") {
    if (!sessionId) return jsonRpcError(400, -32000, "Bad Request: Mcp-Session-Id header is required");
    if (!(await findMcpSession(deps.db, deps.sessionCache, sessionId, agentSession.id, name))) return jsonRpcError(404, -32001, "Session not found");
    await closeMcpSession(deps.db, deps.sessionCache, sessionId);
    await deps.bus.publish({ kind: "session-closed", mcpSessionId: sessionId });
    return new Response(null, { status: 200 });
  }

  if (req.method === "GET") {
    if (!(req.headers.get("accept") ?? "").includes("text/event-stream")) {
      return jsonRpcError(406, -32000, "Not Acceptable: Client must accept text/event-stream");
    }
    if (!sessionId) return jsonRpcError(400, -32000, "Bad Request: Mcp-Session-Id header is required");
    if (!(await findMcpSession(deps.db, deps.sessionCache, sessionId, agentSession.id, name))) return jsonRpcError(404, -32001, "Session not found");
    const lastEventId = req.headers.get("last-event-id");
    if (lastEventId) {
      const resumed = await resumeStream(deps.db, sessionId, lastEventId, req.signal);
      return resumed ?? jsonRpcError(404, -32001, `No stream of this session has the event ${lastEventId} (events are kept for an hour)`);
    }
    return notificationStream(deps.bus, sessionId, req.signal);
  }

  if (req.method !== "POST") return jsonRpcError(405, -32000, "Method not allowed", { allow: "GET, POST, DELETE" });

  const length = Number(req.headers.get("content-length") ?? "0");
  if (length > deps.maxRequestBytes) return jsonRpcError(413, -32000, `Request too large: at most ${deps.maxRequestBytes} bytes`);
  const text = preread ?? (await req.text());
  if (Buffer.byteLength(text) > deps.maxRequestBytes) return jsonRpcError(413, -32000, `Request too large: at most ${deps.maxRequestBytes} bytes`);
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return jsonRpcError(400, -32700, "Parse error: Invalid JSON");
  }
  const malformed = malformedBody(body);
  if (malformed) return jsonRpcError(400, malformed.code, malformed.message);
  const messages = (Array.isArray(body) ? body : [body]) as JSONRPCMessage[];
  if (isModernRequest(req.headers, body)) {
    const message = checkModernRequest(req, body);
    if (message instanceof Response) return message;
    const refused = (await paramHeaderCheck(deps, req, endpoint, message, agentSession.canaryBucket)) ?? (await scopeRefusal(deps.oauth, principal, endpoint, [message]));
    if (refused) return refused;
    if (TASK_METHODS.has(message.method)) return answerModernTask(deps.modernTasks, message, { ctx, agentSessionId: agentSession.id, ownerId: user.id });
    if (message.method === "subscriptions/listen" && deps.listen) {
      const listen = deps.listen;
      // Each look authenticates the token again: a revoked, expired or disabled session's stream ends.
      const look: Look = async () => {
        const p = await authenticateMcpRequest(deps, req, endpoint);
        return p instanceof Response ? { error: ((await p.json()) as { error: Record<string, unknown> }).error } : listen.look(endpoint, p.grant, p.session.canaryBucket);
      };
      const subscribe = async (handle: string, uris: string[]) => {
        const view = { mcpSessionId: handle, isNew: false, bucket: agentSession.canaryBucket, sessionKey: agentSession.id, ctx, clientCapabilities: {}, grant };
        for (const uri of uris) {
          const inner = { jsonrpc: "2.0" as const, id: `listen-${uri}`, method: "resources/subscribe", params: { uri } };
          const a = await innerAnswer(await answerOnEndpoint(deps, req, endpoint, { view, body: inner, messages: [inner], init: undefined, protocolVersion: INNER_PROTOCOL_VERSION, headers: innerHeaders(req.headers), resumable: false }), inner.id);
          if (a.error) return { uri, error: a.error };
        }
        return null;
      };
      return serveListen(message, { bus: deps.bus, streams: listen.streams, agentSession, look, subscribe: endpoint.kind === "server" ? subscribe : undefined, signal: req.signal, serverInfo: { name: "portcullis", version: VERSION } });
    }
    const { view, release } = statelessView(endpoint, agentSession, ctx, grant, deps.statelessLeases, declaresTasks(message.params._meta));
    return serveModernRequest(message, {
      handle: view.mcpSessionId,
      release,
      signal: req.signal,
      // The call behind runs on whichever process holds it (the same cancellation a 2025 client sends).
      cancel: (origin) => void deps.bus.publish({ kind: "cancel", mcpSessionId: origin.mcpSessionId, requestId: origin.requestId, reason: "the client closed the response stream" }).catch(() => undefined),
      run: (inner) => answerOnEndpoint(deps, req, endpoint, { view, body: inner, messages: [inner], init: isInitialize(inner) ? inner : undefined, protocolVersion: INNER_PROTOCOL_VERSION, headers: innerHeaders(req.headers), resumable: false }),
      serverInfo: () => ({ name: "portcullis", version: VERSION }),
      // Only the relay sends a client requests (its upstream's elicitation, sampling, roots).
      mrtr: endpoint.kind === "server" && deps.mrtr ? { ...deps.mrtr, binding: stateBinding(agentSession.id, name, message) } : undefined,
      upstreamStates: endpoint.kind === "server" ? deps.upstreamStates : undefined,
    });
  }
  const init = messages.find((m) => isInitialize(m));
  const outOfScope = await scopeRefusal(deps.oauth, principal, endpoint, messages);
  if (outOfScope) return outOfScope;

  let view: McpSessionView;
  let protocolVersion: string;
  if (init) {
    protocolVersion = init.params.protocolVersion;
    const id = newSessionId();
    // Canary routing and per-session limits follow the agent session, whatever MCP session it opens.
    view = { mcpSessionId: id, isNew: true, bucket: agentSession.canaryBucket, sessionKey: agentSession.id, ctx, clientCapabilities: init.params.capabilities, grant };
  } else {
    if (!sessionId) return jsonRpcError(400, -32000, "Bad Request: Mcp-Session-Id header is required");
    const s = await findMcpSession(deps.db, deps.sessionCache, sessionId, agentSession.id, name);
    if (!s) return jsonRpcError(404, -32001, "Session not found");
    protocolVersion = s.protocolVersion;
    view = { mcpSessionId: s.id, isNew: false, bucket: agentSession.canaryBucket, sessionKey: agentSession.id, ctx, clientCapabilities: (s.capabilities ?? {}) as ClientCapabilities, grant };
    // A cancellation is for the request it names, which may be running on any process.
    for (const m of messages) {
      if (isCancellation(m)) {
        const p = (m.params ?? {}) as { requestId?: string | number; reason?: string };
        if (p.requestId !== undefined) await deps.bus.publish({ kind: "cancel", mcpSessionId: s.id, requestId: p.requestId, reason: p.reason });
      }
    }
  }

  const response = await answerOnEndpoint(deps, req, endpoint, { view, body, messages, init, protocolVersion, headers: req.headers, resumable: true });
  if (init && response instanceof Response && response.status === 200) {
    await createMcpSession(deps.db, {
      id: view.mcpSessionId,
      userId: user.id,
      agentSessionId: agentSession.id,
      endpoint: name,
      protocolVersion: init.params.protocolVersion,
      clientInfo: init.params.clientInfo,
      capabilities: init.params.capabilities,
    });
    response.headers.set("mcp-session-id", view.mcpSessionId);
  } else if (init) deps.abandon?.(endpoint, view);
  return response;
}

/** One request (or batch) as the endpoint's handling answers it, in the protocol version given. */
type EndpointRun = {
  view: McpSessionView;
  body: unknown;
  messages: JSONRPCMessage[];
  init: InitializeRequest | undefined;
  protocolVersion: string;
  headers: { get(name: string): string | null };
  /** SSE answers stored for Last-Event-ID (the 2025 generation; 2026-07-28 streams are not resumable). */
  resumable: boolean;
};

async function answerOnEndpoint(deps: McpHttpDeps, req: McpRequest, endpoint: McpEndpoint, run: EndpointRun): Promise<Response | JsonAnswer> {
  const { view, body, messages, init, protocolVersion } = run;
  // `/mcp` sends nothing but the answer unless progress was asked for: a plain JSON answer then saves the SSE
  // stream. The transparent endpoint may relay the upstream's requests and notifications, so it streams.
  const enableJsonResponse = endpoint.kind !== "server" && !messages.some(wantsProgress);
  // The hot path: a plain tools/call answered straight from the endpoint's dispatch (D81).
  const direct = !init && enableJsonResponse && !Array.isArray(body) ? directToolCallOf(body, run.headers) : undefined;
  const call = direct && deps.directToolCall?.(endpoint, view);
  if (direct && call) {
    return { status: 200, json: await answerToolCall(call, direct.id, direct.params, { signal: req.signal }, deps.logger) };
  }
  // An SSE answer is resumable: its events are stored, and it opens with a priming event and a retry hint.
  const resumable = run.resumable && !enableJsonResponse;
  const transport = sendingUnprefixedErrors(
    new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: undefined,
      enableJsonResponse,
      ...(resumable && { eventStore: createStreamEventStore(deps.db, view.mcpSessionId), retryInterval: SSE_RETRY_MS }),
    }),
  );
  try {
    await deps.serve(endpoint, view, transport);
  } catch (err) {
    // Refused before anything was answered (the transparent endpoint's upstream capacity): an HTTP answer.
    if (isGatewayError(err)) return gatewayRefusal(err, (init as { id?: unknown } | undefined)?.id ?? (messages[0] as { id?: unknown } | undefined)?.id ?? null);
    throw err;
  }
  // The session's negotiated version decides what the stream may carry (the SDK primes only for 2025-11-25 on).
  const negotiated = init || req.headers.get("mcp-protocol-version") === protocolVersion ? req.web() : withProtocolVersion(req.web(), protocolVersion);
  return transport.handleRequest(negotiated, { parsedBody: body });
}

/** The request with the session's protocol version header (its body was read already and is passed parsed). */
function withProtocolVersion(req: Request, version: string): Request {
  const headers = new Headers(req.headers);
  headers.set("mcp-protocol-version", version);
  return new Request(req.url, { method: req.method, headers, signal: req.signal });
}

function wantsProgress(m: JSONRPCMessage): boolean {
  const params = (m as { params?: { _meta?: { progressToken?: unknown } } }).params;
  return params?._meta?.progressToken !== undefined;
}
