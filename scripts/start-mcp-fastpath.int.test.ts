// `portcullis start` answers the MCP endpoints itself, in front of Next.js (scripts/start-server.ts): the edge
// cases answer as the app/mcp routes did (Host and Origin, header size, missing token, JSON-RPC errors), a
// session works end to end, and every other path, HEAD and OPTIONS included, is still Next.js's.
import http from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { apiRequest } from "./test-support/api-request";
import { lastLine, runCli } from "./test-support/run-cli";
import { startApp, stopAllApps, type AppProcess } from "./test-support/start-app";
import { makeTempDir, removeTempDirs } from "./test-support/temp-dir";

const ADMIN = { email: "root@example.com", password: "admin-password-1" };
const INIT = JSON.stringify({
  jsonrpc: "2.0",
  id: 1,
  method: "initialize",
  params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "t", version: "1" } },
});

let app: AppProcess;
let agentToken = "";

beforeAll(async () => {
  const dataDir = await makeTempDir("mcp-fastpath");
  app = await startApp({
    env: { DATA_DIR: dataDir, ADMIN_EMAIL: ADMIN.email, ADMIN_PASSWORD: ADMIN.password, PORTCULLIS_NO_DEMO: "1" },
  });
  const minted = await runCli(["token", "create", "--email", ADMIN.email, "--name", "fastpath"], { env: { DATA_DIR: dataDir } });
  const created = await apiRequest<{ token: string }>(app.baseUrl, "/api/v1/sessions", {
    token: lastLine(minted.stdout),
    body: { agentId: "fastpath", tools: ["*"] },
  });
  expect(created.status).toBe(201);
  agentToken = created.body.token;
});

afterAll(async () => {
  await stopAllApps();
  await removeTempDirs();
});

type Raw = { status: number; headers: http.IncomingHttpHeaders; body: string };

/** One request over node:http, so Host and oversized headers go out exactly as written. */
function raw(method: string, path: string, headers: Record<string, string>, body?: string): Promise<Raw> {
  return new Promise((resolve, reject) => {
    const req = http.request({ host: "127.0.0.1", port: app.port, method, path, headers, agent: false }, (res) => {
      let text = "";
      res.setEncoding("utf8").on("data", (s: string) => (text += s));
      res.on("end", () => resolve({ status: res.statusCode!, headers: res.headers, body: text }));
    });
    req.on("error", reject);
    req.end(body);
  });
}

const agent = (extra: Record<string, string> = {}) => ({
  authorization: `Bearer ${agentToken}`,
  accept: "application/json, text/event-stream",
  "content-type": "application/json",
  ...extra,
});

const rpcError = (code: number) => ({ jsonrpc: "2.0", id: null, error: { code, message: expect.any(String) as string } });

describe("portcullis start – the MCP endpoints' edge cases", () => {
  it.each(["/mcp", "/mcp/code", "/mcp/s/anything"])("POST %s with Host evil.example – 403 JSON-RPC -32000", async (p) => {
    const res = await raw("POST", p, agent({ host: "evil.example" }), INIT);
    expect(res.status).toBe(403);
    expect(JSON.parse(res.body)).toEqual({
      jsonrpc: "2.0",
      id: null,
      error: { code: -32000, message: 'Forbidden: host "evil.example" is not served here (set PUBLIC_URL or MCP_ALLOWED_HOSTS to allow it)' },
    });
  });

  it("POST /mcp with an Origin of another host – 403 JSON-RPC -32000", async () => {
    const res = await raw("POST", "/mcp", agent({ origin: "http://evil.example" }), INIT);
    expect(res.status).toBe(403);
    expect(JSON.parse(res.body)).toEqual({ jsonrpc: "2.0", id: null, error: { code: -32000, message: "Forbidden: the Origin header does not match this server" } });
  });

  it("POST /mcp with 20 KB of headers – 431 headers_too_large, before any route", async () => {
    const res = await raw("POST", "/mcp", agent({ "x-big": "x".repeat(20_000) }), INIT);
    expect(res.status).toBe(431);
    expect(JSON.parse(res.body)).toEqual({ error: { code: "headers_too_large", message: expect.any(String) as string } });
  });

  it.each(["/mcp", "/mcp/code", "/mcp/s/anything"])("POST %s without a token – 401 with the Bearer challenge", async (p) => {
    const res = await raw("POST", p, { "content-type": "application/json", accept: "application/json, text/event-stream" }, INIT);
    expect(res.status).toBe(401);
    expect(res.headers["www-authenticate"]).toBe('Bearer realm="portcullis"');
    expect(res.headers["content-type"]).toBe("application/json");
    expect(JSON.parse(res.body)).toEqual({
      jsonrpc: "2.0",
      id: null,
      error: {
        code: -32001,
        message:
          "Authentication required: send `Authorization: Bearer <agent session token>` (pcs_…, from the console's Agents page or POST /api/v1/sessions).",
      },
    });
  });

  it.each([
    ["not JSON", "{", 400, -32700],
    ["no session", JSON.stringify({ jsonrpc: "2.0", id: 2, method: "tools/list" }), 400, -32000],
    ["an unknown session", JSON.stringify({ jsonrpc: "2.0", id: 2, method: "tools/list" }), 404, -32001, "nope"],
    ["a body over 1 MiB", `{"x":"${"y".repeat(1024 * 1024 + 10)}"}`, 413, -32000],
  ])("POST /mcp with %s – %i JSON-RPC %i", async (_label, body, status, code, session?: string) => {
    const res = await raw("POST", "/mcp", agent(session ? { "mcp-session-id": session } : {}), body);
    expect(res.status).toBe(status);
    expect(JSON.parse(res.body)).toEqual(rpcError(code));
  });

  it("POST /mcp/s/<unknown server> – 404 JSON-RPC -32001", async () => {
    const res = await raw("POST", "/mcp/s/no-such-server", agent(), INIT);
    expect(res.status).toBe(404);
    expect(JSON.parse(res.body)).toEqual({ jsonrpc: "2.0", id: null, error: { code: -32001, message: 'Unknown or disabled server "no-such-server"' } });
  });

  it("PUT /mcp – the edge guard's 405 with Allow", async () => {
    const res = await raw("PUT", "/mcp", agent(), "{}");
    expect(res.status).toBe(405);
    expect(res.headers.allow).toBe("GET, HEAD, OPTIONS, POST, DELETE");
  });
});

describe("portcullis start – an MCP session on /mcp", () => {
  it("initialize, tools/list, the GET stream, DELETE – then the session is gone", async () => {
    const init = await raw("POST", "/mcp", agent(), INIT);
    expect(init.status).toBe(200);
    expect(JSON.parse(init.body)).toMatchObject({ jsonrpc: "2.0", id: 1, result: { protocolVersion: "2025-11-25" } });
    const session = init.headers["mcp-session-id"] as string;
    expect(session).toBeTruthy();
    const inSession = agent({ "mcp-session-id": session, "mcp-protocol-version": "2025-11-25" });

    const list = await raw("POST", "/mcp", inSession, JSON.stringify({ jsonrpc: "2.0", id: 2, method: "tools/list" }));
    expect(list.status).toBe(200);
    expect(JSON.parse(list.body)).toMatchObject({ jsonrpc: "2.0", id: 2, result: { tools: expect.any(Array) as unknown[] } });
    // Answered by the start server itself: one write with its length, none of Next.js's headers.
    expect(list.headers["content-length"]).toBe(String(Buffer.byteLength(list.body)));
    expect(list.headers.vary).toBeUndefined();

    // Progress asked for: the answer comes as an SSE stream, written through as it is produced.
    const streamed = await raw("POST", "/mcp", inSession, JSON.stringify({ jsonrpc: "2.0", id: 4, method: "tools/list", params: { _meta: { progressToken: "p" } } }));
    expect(streamed.status).toBe(200);
    expect(streamed.headers["content-type"]).toBe("text/event-stream");
    const data = streamed.body.split("\n").filter((l) => l.startsWith("data: ") && l.length > 6);
    expect(data.map((l) => JSON.parse(l.slice(6)) as unknown)).toContainEqual(expect.objectContaining({ id: 4, result: expect.objectContaining({ tools: expect.any(Array) as unknown[] }) as unknown }));

    // The stream's headers come at once; the client leaving ends it (the server must not hold on to it).
    const stream = await new Promise<http.IncomingMessage>((resolve, reject) =>
      http
        .request({ host: "127.0.0.1", port: app.port, path: "/mcp", headers: { ...inSession, accept: "text/event-stream" }, agent: false }, resolve)
        .on("error", reject)
        .end(),
    );
    expect(stream.statusCode).toBe(200);
    expect(stream.headers["content-type"]).toBe("text/event-stream");
    const first = await new Promise<string>((resolve) => stream.setEncoding("utf8").once("data", resolve));
    expect(first).toContain(": connected");
    stream.destroy();

    expect((await raw("DELETE", "/mcp", inSession)).status).toBe(200);
    const after = await raw("POST", "/mcp", inSession, JSON.stringify({ jsonrpc: "2.0", id: 3, method: "tools/list" }));
    expect(after.status).toBe(404);
  });
});

describe("portcullis start – a 2026-07-28 client on /mcp, without a session", () => {
  const META = { "io.modelcontextprotocol/protocolVersion": "2026-07-28", "io.modelcontextprotocol/clientCapabilities": {} };
  const modern = (method: string, extra: Record<string, string> = {}) => agent({ "mcp-protocol-version": "2026-07-28", "mcp-method": method, ...extra });
  const rpc = (id: number, method: string) => JSON.stringify({ jsonrpc: "2.0", id, method, params: { _meta: META } });

  it("server/discover and tools/list answered through the node adapter; no session minted", async () => {
    const discover = await raw("POST", "/mcp", modern("server/discover"), rpc(1, "server/discover"));
    expect(discover.status).toBe(200);
    expect(JSON.parse(discover.body)).toMatchObject({ id: 1, result: { resultType: "complete", supportedVersions: expect.arrayContaining(["2026-07-28"]) as unknown } });
    const list = await raw("POST", "/mcp", modern("tools/list", { "mcp-session-id": "ignored" }), rpc(2, "tools/list"));
    expect(list.status).toBe(200);
    expect(JSON.parse(list.body)).toMatchObject({ id: 2, result: { tools: expect.any(Array) as unknown[], cacheScope: "private", ttlMs: 60_000 } });
    expect(list.headers["mcp-session-id"]).toBeUndefined();
  });

  it("an Mcp-Method header unlike the body – 400 -32020; GET – 405 with Allow: POST", async () => {
    const mismatch = await raw("POST", "/mcp", modern("tools/call"), rpc(3, "tools/list"));
    expect(mismatch.status).toBe(400);
    expect(JSON.parse(mismatch.body)).toMatchObject({ id: 3, error: { code: -32020 } });
    const get = await raw("GET", "/mcp", modern("tools/list", { accept: "text/event-stream" }));
    expect(get.status).toBe(405);
    expect(get.headers.allow).toBe("POST");
  });
});

describe("portcullis start – everything else is still Next.js's", () => {
  it("GET /api/health – answered by its route", async () => {
    const res = await raw("GET", "/api/health", {});
    expect(res.status).toBe(200);
    expect(res.headers["content-type"]).toContain("application/json");
  });

  it("GET /signin – the console's page", async () => {
    const res = await raw("GET", "/signin", {});
    expect(res.status).toBe(200);
    expect(res.headers["content-type"]).toContain("text/html");
    expect(res.headers["x-powered-by"]).toBeUndefined();
  });

  it("OPTIONS /mcp – Next.js's 204 with Allow", async () => {
    const res = await raw("OPTIONS", "/mcp", {});
    expect(res.status).toBe(204);
    expect(res.headers.allow).toBe("DELETE, GET, HEAD, OPTIONS, POST");
  });

  it("POST /mcp/ (trailing slash) – Next.js's redirect to /mcp", async () => {
    const res = await raw("POST", "/mcp/", agent(), INIT);
    expect(res.status).toBe(308);
    expect(res.headers.location).toBe("/mcp");
  });
});
