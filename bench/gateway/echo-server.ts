// The benchmark's upstream: one tool, `echo`, that answers at once. The low-level SDK Server (no zod
// tool helper) keeps the upstream's own cost as small as the SDK allows, so what is measured is the hop.
import { randomUUID } from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { CallToolRequestSchema, ListToolsRequestSchema, type Tool } from "@modelcontextprotocol/sdk/types.js";

export const ECHO_TOOL = {
  name: "echo",
  description: "Returns its text unchanged.",
  inputSchema: {
    type: "object" as const,
    properties: { text: { type: "string", maxLength: 1000 } },
    required: ["text"],
    additionalProperties: false,
  },
  annotations: { readOnlyHint: true },
};

/** `siblings`: more definitions listed after echo (never called), for a listing of a real server's size. */
export function createEchoServer(siblings: Tool[] = []): Server {
  const server = new Server({ name: "bench-echo", version: "1.0.0" }, { capabilities: { tools: {} } });
  const tools = [ECHO_TOOL, ...siblings];
  server.setRequestHandler(ListToolsRequestSchema, () => ({ tools }));
  server.setRequestHandler(CallToolRequestSchema, (req) => {
    const text = (req.params.arguments as { text?: unknown } | undefined)?.text;
    return { content: [{ type: "text" as const, text: typeof text === "string" ? text : "" }] };
  });
  return server;
}

/**
 * stateful: one Server + transport per MCP session, reused for every call of that session.
 * stateless: a fresh Server + transport per HTTP request (the SDK's recipe for stateless servers).
 * json: answer POSTs with application/json instead of a one-event SSE stream.
 */
export type EchoHttpMode = { stateful: boolean; json: boolean };

export async function serveEchoHttp(mode: EchoHttpMode, port = 0): Promise<{ url: string; close(): Promise<void> }> {
  const sessions = new Map<string, StreamableHTTPServerTransport>();

  const srv = http.createServer((req, res) => {
    void (async () => {
      if (!mode.stateful) {
        const server = createEchoServer();
        const transport = new StreamableHTTPServerTransport({
          sessionIdGenerator: undefined,
          enableJsonResponse: mode.json,
        });
        res.on("close", () => void transport.close().then(() => server.close()));
        await server.connect(transport);
        await transport.handleRequest(req, res);
        return;
      }
      const id = req.headers["mcp-session-id"];
      let transport = typeof id === "string" ? sessions.get(id) : undefined;
      if (!transport) {
        if (id !== undefined) {
          res
            .writeHead(404, { "content-type": "application/json" })
            .end('{"jsonrpc":"2.0","error":{"code":-32001,"message":"Session not found"},"id":null}');
          return;
        }
        const t = new StreamableHTTPServerTransport({
          sessionIdGenerator: () => randomUUID(),
          enableJsonResponse: mode.json,
          onsessioninitialized: (sid) => void sessions.set(sid, t),
        });
        t.onclose = () => void (t.sessionId && sessions.delete(t.sessionId));
        await createEchoServer().connect(t);
        transport = t;
      }
      await transport.handleRequest(req, res);
    })().catch((err: unknown) => {
      console.error("echo upstream:", err);
      if (!res.headersSent) res.writeHead(500).end();
    });
  });
  srv.keepAliveTimeout = 60_000;
  await new Promise<void>((resolve) => srv.listen(port, "127.0.0.1", resolve));
  const { port: bound } = srv.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${bound}/mcp`,
    async close() {
      await Promise.all([...sessions.values()].map((t) => t.close().catch(() => undefined)));
      srv.closeAllConnections();
      await new Promise<void>((resolve) => srv.close(() => resolve()));
    },
  };
}
