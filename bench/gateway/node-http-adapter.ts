// Serves a fetch-style handler (Request → Response) on node:http: what `portcullis start` gets from
// Next.js, without Next.js. Bodies are streamed both ways; a closed connection aborts the Request.
import { once } from "node:events";
import type { IncomingMessage, ServerResponse } from "node:http";
import { Readable } from "node:stream";

export function toWebRequest(req: IncomingMessage, res: ServerResponse): Request {
  const abort = new AbortController();
  // "close" also fires after a normal end; aborting then is harmless and frees listeners on the signal.
  res.once("close", () => abort.abort());
  const headers = new Headers();
  for (let i = 0; i + 1 < req.rawHeaders.length; i += 2) headers.append(req.rawHeaders[i]!, req.rawHeaders[i + 1]!);
  const url = `http://${req.headers.host ?? "127.0.0.1"}${req.url ?? "/"}`;
  const hasBody = req.method !== "GET" && req.method !== "HEAD";
  const init = {
    method: req.method ?? "GET",
    headers,
    signal: abort.signal,
    ...(hasBody ? { body: Readable.toWeb(req) as ReadableStream<Uint8Array>, duplex: "half" } : {}),
  };
  return new Request(url, init);
}

export async function writeWebResponse(response: Response, res: ServerResponse): Promise<void> {
  const headers: Record<string, string | string[]> = {};
  response.headers.forEach((value, key) => {
    if (key !== "set-cookie") headers[key] = value;
  });
  const cookies = response.headers.getSetCookie();
  if (cookies.length) headers["set-cookie"] = cookies;
  res.writeHead(response.status, headers);
  if (!response.body) {
    res.end();
    return;
  }
  // Headers first for a stream: an SSE client waits for them before the first event.
  if (response.headers.get("content-type")?.startsWith("text/event-stream")) res.flushHeaders();
  const reader = response.body.getReader();
  const closed = once(res, "close").then(() => reader.cancel().catch(() => undefined));
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      if (!res.write(value)) await Promise.race([once(res, "drain"), closed]);
      if (res.destroyed) return;
    }
    res.end();
  } catch {
    res.destroy();
  }
}

/** A node:http request listener around `handle`; faults become a 500 (or a reset once streaming). */
export function nodeListener(handle: (req: Request) => Promise<Response>, onError: (err: unknown) => void) {
  return (req: IncomingMessage, res: ServerResponse) => {
    void handle(toWebRequest(req, res))
      .then((response) => writeWebResponse(response, res))
      .catch((err: unknown) => {
        onError(err);
        if (!res.headersSent)
          res.writeHead(500, { "content-type": "application/json" }).end('{"error":{"code":"internal"}}');
        else res.destroy();
      });
  };
}
