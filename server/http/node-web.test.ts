// The node adapter's request as the MCP handler reads it: over a real HTTP server and a raw socket (so header
// case and repeated fields reach it as a client sent them), its headers answer as a Web Headers object does,
// and the Web Request, when asked for, carries the same method, URL, headers and body.
import http from "node:http";
import net from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { toMcpRequest, toWebRequest } from "./node-web";

type Seen = { mcp: Awaited<ReturnType<typeof toMcpRequest>>; web: Awaited<ReturnType<typeof toWebRequest>> };

describe("toMcpRequest", () => {
  let server: http.Server;
  let port = 0;
  let seen: (s: Seen) => void = () => undefined;

  beforeAll(async () => {
    server = http.createServer((req, res) => {
      // Both adapters read the same request: the raw list is kept, the body read once and shared.
      void toMcpRequest(req, "http://gateway.test", 1024, new AbortController().signal).then((mcp) => {
        const headers = new Headers();
        for (let i = 0; i < req.rawHeaders.length; i += 2) headers.append(req.rawHeaders[i]!, req.rawHeaders[i + 1]!);
        seen({ mcp, web: { request: new Request(`http://gateway.test${req.url ?? "/"}`, { method: req.method ?? "GET", headers }), body: mcp.body } });
        res.end("ok");
      });
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    port = (server.address() as net.AddressInfo).port;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  function send(raw: string): Promise<Seen> {
    return new Promise((resolve, reject) => {
      seen = resolve;
      const socket = net.connect(port, "127.0.0.1", () => socket.end(raw));
      socket.on("error", reject);
      socket.resume();
    });
  }

  const body = '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"a"}}';
  const request = (headers: string[]) => `POST /mcp?x=1 HTTP/1.1\r\nHost: 127.0.0.1\r\n${headers.map((h) => `${h}\r\n`).join("")}Content-Length: ${String(body.length)}\r\nConnection: close\r\n\r\n${body}`;

  it.each([
    ["a header in any case", ["AUTHORIZATION: Bearer pcs_one"], "authorization"],
    ["a repeated header, joined as Headers joins it (not Node's first-wins)", ["Authorization: Bearer pcs_one", "authorization: Bearer pcs_two"], "authorization"],
    ["a repeated list header", ["Accept: application/json", "Accept: text/event-stream"], "accept"],
    ["a header with surrounding spaces", ["Mcp-Session-Id:    abc   "], "mcp-session-id"],
    ["an absent header", [], "x-request-id"],
  ])("%s", async (_label, headers, name) => {
    const { mcp, web } = await send(request(headers));
    expect(mcp.request.headers.get(name)).toBe(web.request.headers.get(name));
    expect(mcp.request.headers.get(name.toUpperCase())).toBe(web.request.headers.get(name));
  });

  it("names the headers sent, lower-case, as a Web Headers object does (Mcp-Param-* families are found by them)", async () => {
    const { mcp, web } = await send(request(["Mcp-Param-Region: eu", "MCP-PARAM-Zone: a", "mcp-param-region: us"]));
    const names = mcp.request.headerNames();
    expect(new Set(names)).toEqual(new Set([...web.request.headers.keys()]));
    expect(names).toEqual(expect.arrayContaining(["mcp-param-region", "mcp-param-zone"]) as unknown);
    expect(mcp.request.headers.get("mcp-param-region")).toBe("eu, us");
  });

  it("reads the body once, and builds the Web Request only when asked, once, with the same method, URL and headers", async () => {
    const { mcp } = await send(request(["Authorization: Bearer pcs_one", "Authorization: Bearer pcs_two"]));
    expect(mcp.body).toBe(body);
    expect(await mcp.request.text()).toBe(body);
    expect(mcp.request.method).toBe("POST");
    expect(mcp.request.url).toBe("http://gateway.test/mcp?x=1");
    const web = mcp.request.web();
    expect(mcp.request.web()).toBe(web);
    expect(web.method).toBe("POST");
    expect(web.url).toBe("http://gateway.test/mcp?x=1");
    expect(web.headers.get("authorization")).toBe("Bearer pcs_one, Bearer pcs_two");
  });
});
