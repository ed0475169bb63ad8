// Serves a web-standard handler ((Request) => Response) over node:http for integration tests, so real HTTP
// clients (the MCP SDK's StreamableHTTPClientTransport, fetch) reach the gateway without Next.js.
import http from "node:http";
import type { AddressInfo } from "node:net";

export type WebHandler = (req: Request) => Promise<Response>;
export type ServedHandler = { url: string; close(): Promise<void> };

async function readBody(req: http.IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

function toRequest(req: http.IncomingMessage, body: Buffer, signal: AbortSignal, origin: string): Request {
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (value === undefined) continue;
    for (const v of Array.isArray(value) ? value : [value]) headers.append(name, v);
  }
  const hasBody = req.method !== "GET" && req.method !== "HEAD" && body.length > 0;
  return new Request(new URL(req.url ?? "/", origin), {
    method: req.method ?? "GET",
    headers,
    signal,
    ...(hasBody ? { body: new Uint8Array(body) } : {}),
  });
}

async function writeResponse(res: http.ServerResponse, response: Response, onClientGone: (fn: () => void) => void) {
  const headers: Record<string, string[]> = {};
  response.headers.forEach((value, name) => (headers[name] ??= []).push(value));
  res.writeHead(response.status, headers);
  if (!response.body) return void res.end();
  res.flushHeaders();
  const reader = response.body.getReader();
  onClientGone(() => void reader.cancel().catch(() => undefined));
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      res.write(value);
    }
  } catch {
    // The client went away or the stream failed; either way there is no one left to answer.
  }
  res.end();
}

/** Listens on 127.0.0.1 on a free port; a client disconnect aborts the Request's signal. */
export async function serveWebHandler(handler: WebHandler): Promise<ServedHandler> {
  const sockets = new Set<import("node:net").Socket>();
  const server = http.createServer((req, res) => {
    const abort = new AbortController();
    const gone: (() => void)[] = [];
    res.on("close", () => {
      if (res.writableFinished) return;
      abort.abort(new Error("client disconnected"));
      for (const fn of gone) fn();
    });
    void (async () => {
      try {
        const body = await readBody(req);
        const response = await handler(toRequest(req, body, abort.signal, origin));
        await writeResponse(res, response, (fn) => gone.push(fn));
      } catch (err) {
        if (!res.headersSent) res.writeHead(500, { "content-type": "text/plain" });
        res.end(err instanceof Error ? err.message : String(err));
      }
    })();
  });
  server.on("connection", (s) => {
    sockets.add(s);
    s.on("close", () => sockets.delete(s));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url: origin,
    async close() {
      // Open GET streams would keep close() waiting for ever.
      for (const s of sockets) s.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
