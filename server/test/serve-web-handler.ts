// Serves a web-standard handler ((Request) => Response) over node:http for integration tests, so real HTTP
// clients (the MCP SDK's StreamableHTTPClientTransport, fetch) reach the gateway without Next.js, through the
// same adapter `portcullis start` uses for its MCP endpoints (server/http/node-web.ts).
import http from "node:http";
import type { AddressInfo } from "node:net";
import { sendWebResponse, toWebRequest } from "../http/node-web";

/** `body`: the request's body as read by the adapter (the Request carries none). */
export type WebHandler = (req: Request, body: string | undefined) => Promise<Response>;
export type ServedHandler = { url: string; close(): Promise<void> };

/** Listens on 127.0.0.1 on a free port; a client disconnect aborts the Request's signal. */
export async function serveWebHandler(handler: WebHandler, nodeFirst?: (req: http.IncomingMessage, res: http.ServerResponse) => Promise<boolean>): Promise<ServedHandler> {
  const sockets = new Set<import("node:net").Socket>();
  const server = http.createServer((req, res) => {
    // A Node-level handler first (the embedded authorization server, as `portcullis start` serves it).
    if (nodeFirst) {
      void nodeFirst(req, res).then(
        (done) => done || serveWeb(req, res),
        (err: unknown) => {
          if (!res.headersSent) res.writeHead(500, { "content-type": "text/plain" });
          res.end(err instanceof Error ? err.message : String(err));
        },
      );
      return;
    }
    serveWeb(req, res);
  });
  const serveWeb = (req: http.IncomingMessage, res: http.ServerResponse) => {
    const abort = new AbortController();
    res.on("close", () => {
      if (!res.writableFinished) abort.abort(new Error("client disconnected"));
    });
    void (async () => {
      try {
        const { request, body } = await toWebRequest(req, origin, Number.POSITIVE_INFINITY, abort.signal);
        const response = await handler(request, body);
        await sendWebResponse(res, response);
      } catch (err) {
        if (!res.headersSent) res.writeHead(500, { "content-type": "text/plain" });
        res.end(err instanceof Error ? err.message : String(err));
      }
    })();
  };
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
