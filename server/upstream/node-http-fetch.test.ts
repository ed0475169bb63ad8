// The node:http fetch the upstream client uses: bodies both ways, streamed responses, abort, and no
// listener left on a shared signal once responses end.
import http from "node:http";
import type { AddressInfo } from "node:net";
import { getEventListeners } from "node:events";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { nodeHttpFetch } from "./node-http-fetch";

describe("nodeHttpFetch", () => {
  let server: http.Server;
  let base = "";
  beforeAll(async () => {
    server = http.createServer((req, res) => {
      if (req.url === "/echo") {
        let body = "";
        req.on("data", (c: Buffer) => (body += c.toString()));
        req.on("end", () => {
          res.writeHead(201, { "content-type": "application/json", "x-method": req.method ?? "", "x-auth": req.headers.authorization ?? "" });
          res.end(JSON.stringify({ got: body }));
        });
      } else if (req.url === "/sse") {
        res.writeHead(200, { "content-type": "text/event-stream" });
        res.write("data: first\n\n");
        setTimeout(() => res.end("data: second\n\n"), 300);
      } else if (req.url === "/empty") {
        res.writeHead(204).end();
      } else if (req.url === "/hang") {
        // never answers
      }
    });
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((r) => server.close(r));
  });

  it("sends method, headers and body, and returns status, headers and body", async () => {
    const res = await nodeHttpFetch(`${base}/echo`, { method: "POST", headers: { authorization: "Bearer x" }, body: "hello" });
    expect(res.status).toBe(201);
    expect(res.headers.get("x-method")).toBe("POST");
    expect(res.headers.get("x-auth")).toBe("Bearer x");
    expect(await res.json()).toEqual({ got: "hello" });
  });

  it("streams a response: the first event arrives before the response ends", async () => {
    const res = await nodeHttpFetch(`${base}/sse`);
    const reader = res.body!.getReader();
    const first = await reader.read();
    // Buffered, the first read would hold both events; streamed, it ends before the server writes the second.
    expect(new TextDecoder().decode(first.value)).toContain("first");
    expect(new TextDecoder().decode(first.value)).not.toContain("second");
    let rest = "";
    for (let r = await reader.read(); !r.done; r = await reader.read()) rest += new TextDecoder().decode(r.value);
    expect(rest).toContain("second");
  });

  it("gives a 204 no body", async () => {
    const res = await nodeHttpFetch(`${base}/empty`);
    expect(res.status).toBe(204);
    expect(res.body).toBeNull();
  });

  it("rejects when aborted, and leaves no listener on a signal shared by many requests", async () => {
    const shared = new AbortController();
    for (let i = 0; i < 20; i++) await (await nodeHttpFetch(`${base}/echo`, { method: "POST", body: "x", signal: shared.signal })).text();
    expect(getEventListeners(shared.signal, "abort")).toHaveLength(0);
    const ac = new AbortController();
    const pending = nodeHttpFetch(`${base}/hang`, { signal: ac.signal });
    ac.abort(new Error("gave up"));
    await expect(pending).rejects.toThrow("gave up");
    await expect(nodeHttpFetch(`${base}/echo`, { signal: ac.signal })).rejects.toThrow("gave up");
  });

  it("refuses body types it does not send, with a clear error", async () => {
    await expect(nodeHttpFetch(`${base}/echo`, { method: "POST", body: new Blob(["x"]) })).rejects.toThrow(/string or byte bodies/);
  });

  it("closes an idle connection before the upstream's keep-alive timer would (no call sent on a closing socket)", async () => {
    // Node's server says `Keep-Alive: timeout=2` and closes an idle connection after 2.5 s; we must close first.
    const upstream = http.createServer((_req, res) => res.end("ok"));
    upstream.keepAliveTimeout = 2_500;
    const closedBy = new Promise<"client" | "server">((resolve) =>
      upstream.on("connection", (socket) => {
        let clientEnded = false;
        socket.on("end", () => (clientEnded = true)); // the client's FIN
        socket.on("close", () => resolve(clientEnded ? "client" : "server"));
      }),
    );
    await new Promise<void>((r) => upstream.listen(0, "127.0.0.1", r));
    try {
      const res = await nodeHttpFetch(`http://127.0.0.1:${(upstream.address() as AddressInfo).port}/`);
      expect(res.headers.get("keep-alive")).toBe("timeout=2");
      expect(await res.text()).toBe("ok");
      expect(await closedBy).toBe("client");
    } finally {
      upstream.closeAllConnections();
      await new Promise((r) => upstream.close(r));
    }
  });
});
