// HTTP side of the gateway endpoints (Streamable HTTP, protocol 2025-06-18 and 2025-11-25). Sessions are
// ours (PostgreSQL rows), so the SDK transport runs stateless, one per request, on any process.
import { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js";
import { isInitializeRequest, type JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";
import type { Server } from "@modelcontextprotocol/sdk/server/index.js";
import type { RequestContext } from "../context";
import type { Db, User } from "../db/client";
import { isGatewayError } from "../errors";
import type { ChangeBus } from "../events/change-bus";
import { canaryBucket, closeMcpSession, createMcpSession, findMcpSession, newSessionId } from "./mcp-sessions";

export type McpEndpoint = { kind: "aggregate" };

export type McpHttpDeps = {
  db: Db;
  bus: ChangeBus;
  authenticate(token: string): Promise<User>;
  buildServer(endpoint: McpEndpoint, session: { bucket: number; ctx: RequestContext; sessionKey: string }): Server;
  maxRequestBytes: number;
};

const endpointName = (e: McpEndpoint) => (e.kind === "aggregate" ? "mcp" : "mcp");

function jsonRpcError(status: number, code: number, message: string, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify({ jsonrpc: "2.0", error: { code, message }, id: null }), {
    status,
    headers: { "content-type": "application/json", ...headers },
  });
}

async function authenticate(deps: McpHttpDeps, req: Request): Promise<User | Response> {
  const header = req.headers.get("authorization") ?? "";
  const [scheme, token] = header.split(/\s+/, 2);
  const challenge = { "www-authenticate": 'Bearer realm="portcullis"' };
  if (scheme?.toLowerCase() !== "bearer" || !token) {
    return jsonRpcError(401, -32001, "Authentication required: send `Authorization: Bearer <token>`.", challenge);
  }
  try {
    return await deps.authenticate(token);
  } catch (err) {
    if (isGatewayError(err)) return jsonRpcError(401, -32001, err.message, challenge);
    throw err;
  }
}

/** Handles one HTTP request to an MCP endpoint. */
export async function handleMcpRequest(deps: McpHttpDeps, req: Request, endpoint: McpEndpoint): Promise<Response> {
  const user = await authenticate(deps, req);
  if (user instanceof Response) return user;
  const name = endpointName(endpoint);
  const requestId = req.headers.get("x-request-id") ?? crypto.randomUUID();
  const ctx: RequestContext = { actor: { type: "user", userId: user.id, email: user.email, role: user.role }, requestId, via: "api_token", ip: req.headers.get("x-forwarded-for")?.split(",")[0]?.trim() };
  const sessionId = req.headers.get("mcp-session-id");

  if (req.method === "DELETE") {
    if (!sessionId) return jsonRpcError(400, -32000, "Bad Request: Mcp-Session-Id header is required");
    if (!(await findMcpSession(deps.db, sessionId, user.id, name))) return jsonRpcError(404, -32001, "Session not found");
    await closeMcpSession(deps.db, sessionId);
    return new Response(null, { status: 200 });
  }

  if (req.method === "GET") {
    if (!(req.headers.get("accept") ?? "").includes("text/event-stream")) {
      return jsonRpcError(406, -32000, "Not Acceptable: Client must accept text/event-stream");
    }
    if (!sessionId) return jsonRpcError(400, -32000, "Bad Request: Mcp-Session-Id header is required");
    if (!(await findMcpSession(deps.db, sessionId, user.id, name))) return jsonRpcError(404, -32001, "Session not found");
    return notificationStream(deps.bus, req.signal);
  }

  if (req.method !== "POST") return jsonRpcError(405, -32000, "Method not allowed", { allow: "GET, POST, DELETE" });

  const length = Number(req.headers.get("content-length") ?? "0");
  if (length > deps.maxRequestBytes) return jsonRpcError(413, -32000, `Request too large: at most ${deps.maxRequestBytes} bytes`);
  const text = await req.text();
  if (Buffer.byteLength(text) > deps.maxRequestBytes) return jsonRpcError(413, -32000, `Request too large: at most ${deps.maxRequestBytes} bytes`);
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return jsonRpcError(400, -32700, "Parse error: Invalid JSON");
  }
  const messages = (Array.isArray(body) ? body : [body]) as JSONRPCMessage[];
  const init = messages.find((m) => isInitializeRequest(m));

  let bucketKey: string;
  let newId: string | undefined;
  if (init) {
    newId = newSessionId();
    bucketKey = newId;
  } else {
    if (!sessionId) return jsonRpcError(400, -32000, "Bad Request: Mcp-Session-Id header is required");
    const s = await findMcpSession(deps.db, sessionId, user.id, name);
    if (!s) return jsonRpcError(404, -32001, "Session not found");
    bucketKey = s.agentSessionId ?? s.id;
  }

  const server = deps.buildServer(endpoint, { bucket: canaryBucket(bucketKey), ctx, sessionKey: bucketKey });
  const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined });
  await server.connect(transport);
  const response = await transport.handleRequest(req, { parsedBody: body });
  if (init && newId && response.status === 200) {
    await createMcpSession(deps.db, {
      id: newId,
      userId: user.id,
      endpoint: name,
      protocolVersion: init.params.protocolVersion,
      clientInfo: init.params.clientInfo,
      capabilities: init.params.capabilities,
    });
    response.headers.set("mcp-session-id", newId);
  }
  return response;
}

/** The GET stream: server-to-client notifications (tools/list_changed) from any process, plus keep-alive. */
function notificationStream(bus: ChangeBus, signal: AbortSignal): Response {
  const encoder = new TextEncoder();
  let unsubscribe = () => {};
  let keepAlive: NodeJS.Timeout | undefined;
  const stream = new ReadableStream<Uint8Array>({
    start(controller) {
      const send = (msg: unknown) => {
        try {
          controller.enqueue(encoder.encode(`event: message\ndata: ${JSON.stringify(msg)}\n\n`));
        } catch {
          cleanup();
        }
      };
      const cleanup = () => {
        unsubscribe();
        clearInterval(keepAlive);
      };
      unsubscribe = bus.subscribe((e) => {
        if (e.kind === "registry") send({ jsonrpc: "2.0", method: "notifications/tools/list_changed" });
      });
      keepAlive = setInterval(() => {
        try {
          controller.enqueue(encoder.encode(": keep-alive\n\n"));
        } catch {
          cleanup();
        }
      }, 15_000);
      signal.addEventListener("abort", () => {
        cleanup();
        try {
          controller.close();
        } catch {
          /* already closed */
        }
      });
    },
    cancel() {
      unsubscribe();
      clearInterval(keepAlive);
    },
  });
  return new Response(stream, { status: 200, headers: { "content-type": "text/event-stream", "cache-control": "no-cache, no-transform", connection: "keep-alive" } });
}
