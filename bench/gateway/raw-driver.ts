// The benchmark's client: raw HTTP/1.1 keep-alive, one connection and one MCP session per worker, no SDK
// client in the timed loop. Answers are read as JSON or as SSE (the `data:` line carrying the call's id).
// `openRawSession` speaks 2025-06-18 (initialize, then calls in the session); `openStatelessSession` speaks
// 2026-07-28 (no initialize: each call carries its version and capabilities in `_meta` and the routing headers).
import http from "node:http";

export type RawSession = { call(): Promise<void>; close(): Promise<void> };
type Answer = { status: number; headers: http.IncomingHttpHeaders; body: string };

const PROTOCOL = "2025-06-18";

/** The JSON-RPC message answering `id` in a JSON or SSE body. */
export function answerOf(contentType: string | undefined, body: string, id: number): { result?: unknown; error?: unknown } {
  if (!(contentType ?? "").includes("text/event-stream")) return JSON.parse(body) as { result?: unknown };
  for (const line of body.split("\n")) {
    if (!line.startsWith("data:")) continue;
    const data = line.slice(5).trim();
    if (!data) continue;
    const msg = JSON.parse(data) as { id?: unknown; result?: unknown; error?: unknown };
    if (msg.id === id) return msg;
  }
  throw new Error(`no answer with id ${id} in the SSE stream: ${body.slice(0, 200)}`);
}

type Send = (method: string, headers: Record<string, string>, body?: string) => Promise<Answer>;

/** One keep-alive connection to `url`'s host: its sender, and the agent to destroy at the end. */
function connection(url: string): { send: Send; agent: http.Agent } {
  const target = new URL(url);
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  const send: Send = (method, headers, body) =>
    sendOnce(method, headers, body).catch((err: NodeJS.ErrnoException & { reusedSocket?: boolean }) => {
      if (err.reusedSocket && err.code === "ECONNRESET") return sendOnce(method, headers, body);
      throw err;
    });
  const sendOnce = (method: string, headers: Record<string, string>, body?: string) =>
    new Promise<Answer>((resolve, reject) => {
      const req = http.request(
        { host: target.hostname, port: target.port, path: target.pathname, method, agent, headers: { ...headers, ...(body && { "content-length": String(Buffer.byteLength(body)) }) } },
        (res) => {
          let text = "";
          res.setEncoding("utf8").on("data", (s: string) => (text += s));
          res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: text }));
          res.on("error", reject);
        },
      );
      req.on("error", (err) => reject(Object.assign(err, { reusedSocket: req.reusedSocket })));
      req.end(body);
    });
  return { send, agent };
}

/** Each worker's call text is its own (same length): see `call` below. */
const callText = (own: string, callId: number, text: string) => (own + String(callId) + text).slice(0, Math.max(text.length, own.length + String(callId).length));

/** Throws unless the answer is the upstream's echo of this very call (not a task handle or an earlier call's result). */
function expectEcho(res: Answer, callId: number, echo: string): void {
  if (res.status !== 200) throw new Error(`tools/call: ${res.status} ${res.body.slice(0, 300)}`);
  const msg = answerOf(res.headers["content-type"], res.body, callId) as { result?: { isError?: boolean; content?: { text?: string }[] }; error?: unknown };
  if (!msg.result || msg.result.isError) throw new Error(`tools/call failed: ${res.body.slice(0, 300)}`);
  if (msg.result.content?.[0]?.text !== echo) throw new Error(`tools/call answered something else than the echo: ${res.body.slice(0, 300)}`);
}

const baseHeaders = (token: string | undefined): Record<string, string> => ({
  accept: "application/json, text/event-stream",
  "content-type": "application/json",
  ...(token && { authorization: `Bearer ${token}` }),
});

export async function openRawSession(url: string, token: string | undefined, tool: string, text: string): Promise<RawSession> {
  const { send, agent } = connection(url);
  const base = baseHeaders(token);
  const init = await send("POST", base, JSON.stringify({ jsonrpc: "2.0", id: 0, method: "initialize", params: { protocolVersion: PROTOCOL, capabilities: {}, clientInfo: { name: "bench", version: "1" } } }));
  const sessionId = init.headers["mcp-session-id"];
  if (init.status !== 200 || typeof sessionId !== "string") throw new Error(`initialize: ${init.status} ${init.body.slice(0, 300)}`);
  answerOf(init.headers["content-type"], init.body, 0);
  const session = { ...base, "mcp-session-id": sessionId, "mcp-protocol-version": PROTOCOL };
  const initialized = await send("POST", session, JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" }));
  if (initialized.status !== 202) throw new Error(`notifications/initialized: ${initialized.status} ${initialized.body.slice(0, 300)}`);

  let id = 0;
  // Each call's text is its own (same length): identical calls of one agent session made while the first runs
  // are answered with the first one's task by Portcullis (its dedupe window), which is not the load to measure.
  const own = `${sessionId.slice(0, 8)}-`;
  return {
    async call() {
      const callId = ++id;
      const echo = callText(own, callId, text);
      expectEcho(await send("POST", session, JSON.stringify({ jsonrpc: "2.0", id: callId, method: "tools/call", params: { name: tool, arguments: { text: echo } } })), callId, echo);
    },
    async close() {
      await send("DELETE", session).catch(() => undefined);
      agent.destroy();
    },
  };
}

let statelessWorkers = 0;

/** A 2026-07-28 client's worker: no initialize, no session; every call stands alone. */
export function openStatelessSession(url: string, token: string | undefined, tool: string, text: string): RawSession {
  const { send, agent } = connection(url);
  const headers = { ...baseHeaders(token), "mcp-protocol-version": "2026-07-28", "mcp-method": "tools/call", "mcp-name": tool };
  const meta = { "io.modelcontextprotocol/protocolVersion": "2026-07-28", "io.modelcontextprotocol/clientCapabilities": {}, "io.modelcontextprotocol/clientInfo": { name: "bench", version: "1" } };
  const own = `w${String(++statelessWorkers).padStart(7, "0")}-`;
  let id = 0;
  return {
    async call() {
      const callId = ++id;
      const echo = callText(own, callId, text);
      expectEcho(await send("POST", headers, JSON.stringify({ jsonrpc: "2.0", id: callId, method: "tools/call", params: { name: tool, arguments: { text: echo }, _meta: meta } })), callId, echo);
    },
    close: () => Promise.resolve(agent.destroy()),
  };
}
