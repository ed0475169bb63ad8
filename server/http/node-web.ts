// The few steps between Node's HTTP objects and the Web Request/Response the MCP handler speaks (its SDK
// transport is the Web-standard one), for the start server's MCP fast path: no framework in between.
import type { IncomingMessage, ServerResponse } from "node:http";
import type { JsonAnswer, McpRequest } from "../mcp/mcp-request";

/** toMcpRequest's request as a Web Request (for handlers that speak only Web Requests), its body apart as text. */
export async function toWebRequest(req: IncomingMessage, origin: string, maxBodyBytes: number, signal: AbortSignal): Promise<{ request: Request; body: string | undefined }> {
  const { request, body } = await toMcpRequest(req, origin, maxBodyBytes, signal);
  return { request: request.web(), body };
}

/**
 * The request as the MCP handler reads it, its body apart as text: handed to the handler as read, it is not put
 * into a Web body stream only to be read out of it again (that round trip was a tenth of the gateway's CPU per
 * call). The body is read up to `maxBodyBytes + 1` bytes: enough for the handler to refuse an oversized body with
 * its own 413, without holding more of it in memory. Headers are read from the raw list as a Web Headers object
 * would answer (names case-insensitive, repeated fields joined with ", "), so a repeated Authorization header is
 * refused as before rather than taken first-wins as Node's parsed headers would; the Web Request is built only if
 * the handler asks for it.
 */
export async function toMcpRequest(req: IncomingMessage, origin: string, maxBodyBytes: number, signal: AbortSignal): Promise<{ request: McpRequest; body: string | undefined }> {
  const raw = req.rawHeaders;
  const method = req.method ?? "GET";
  const url = origin + (req.url ?? "/");
  const body = method === "GET" || method === "HEAD" ? undefined : (await readBody(req, maxBodyBytes + 1)).toString("utf8");
  let web: Request | undefined;
  const request: McpRequest = {
    method,
    url,
    signal,
    headers: {
      get(name: string): string | null {
        const lower = name.toLowerCase();
        let value: string | null = null;
        for (let i = 0; i < raw.length; i += 2) {
          if (raw[i]!.toLowerCase() !== lower) continue;
          const v = raw[i + 1]!.trim();
          value = value === null ? v : `${value}, ${v}`;
        }
        return value;
      },
    },
    headerNames: () => raw.filter((_, i) => i % 2 === 0).map((n) => n.toLowerCase()),
    text: () => Promise.resolve(body ?? ""),
    web() {
      if (!web) {
        const headers = new Headers();
        for (let i = 0; i < raw.length; i += 2) headers.append(raw[i]!, raw[i + 1]!);
        web = new Request(url, { method, headers, signal });
      }
      return web;
    },
  };
  return { request, body };
}

/** Writes a JSON answer of the MCP hot path in one write. */
export function sendJsonAnswer(res: ServerResponse, answer: JsonAnswer): void {
  res.writeHead(answer.status, { "content-type": "application/json", "content-length": Buffer.byteLength(answer.json) }).end(answer.json);
}

function readBody(req: IncomingMessage, limit: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const done = () => {
      req.off("data", onData).off("end", done).off("error", reject);
      resolve(Buffer.concat(chunks, Math.min(size, limit)));
    };
    const onData = (chunk: Buffer) => {
      chunks.push(chunk);
      size += chunk.length;
      // Node discards the rest of the body once the answer is sent.
      if (size >= limit) done();
    };
    req.on("data", onData).on("end", done).on("error", reject);
  });
}

/** Writes `response` to `res`: a JSON answer in one write, a stream (SSE) chunk by chunk until either side ends. */
export async function sendWebResponse(res: ServerResponse, response: Response): Promise<void> {
  const headers: Record<string, string | string[]> = {};
  response.headers.forEach((value, name) => (headers[name] = value));
  const cookies = response.headers.getSetCookie();
  if (cookies.length) headers["set-cookie"] = cookies;
  if (!response.body) return void res.writeHead(response.status, headers).end();
  if (!(response.headers.get("content-type") ?? "").includes("text/event-stream")) {
    const bytes = Buffer.from(await response.arrayBuffer());
    headers["content-length"] = String(bytes.length);
    return void res.writeHead(response.status, headers).end(bytes);
  }
  res.writeHead(response.status, headers);
  res.flushHeaders();
  const reader = response.body.getReader();
  const stop = () => void reader.cancel().catch(() => undefined);
  res.once("close", stop);
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      // A slow reader: wait for the socket to drain rather than buffer the stream in memory.
      if (!res.write(value)) await drained(res);
    }
  } catch {
    // The stream failed or was cancelled because the client left: nothing more to send.
  } finally {
    res.off("close", stop);
    res.end();
  }
}

function drained(res: ServerResponse): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      res.off("drain", done).off("close", done);
      resolve();
    };
    res.on("drain", done).on("close", done);
  });
}
