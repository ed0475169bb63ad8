// Bad input against `portcullis start` itself (our HTTP server in front of Next.js), where the framework's own
// answers would otherwise reach the client: methods a route does not serve, paths that cannot be decoded,
// the GET event stream's headers, and a fast-check run over every REST route with hostile methods, path
// parameters, query strings and bodies. Every answer is our documented error, in time; the process stays healthy.
import fc from "fast-check";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadRouteTable } from "../server/http/route-table";
import {
  fuzzParams,
  fuzzTimeoutMs,
  hostileJson,
  hostileJsonRpcBody,
  hostileString,
  malformedJsonText,
} from "../server/test/fuzz";
import { apiRequest } from "./test-support/api-request";
import { lastLine, REPO_ROOT, runCli } from "./test-support/run-cli";
import { startApp, stopAllApps, type AppProcess } from "./test-support/start-app";
import { makeTempDir, removeTempDirs } from "./test-support/temp-dir";

const ADMIN = { email: "root@example.com", password: "admin-password-1" };
const ANSWER_WITHIN_MS = 5_000;

let app: AppProcess;
let adminToken = "";

beforeAll(async () => {
  const dataDir = await makeTempDir("hostile-http");
  app = await startApp({
    env: { DATA_DIR: dataDir, ADMIN_EMAIL: ADMIN.email, ADMIN_PASSWORD: ADMIN.password, PORTCULLIS_NO_DEMO: "1" },
  });
  const minted = await runCli(["token", "create", "--email", ADMIN.email, "--name", "fuzz"], {
    env: { DATA_DIR: dataDir },
  });
  adminToken = lastLine(minted.stdout);
});

afterAll(async () => {
  await stopAllApps();
  await removeTempDirs();
});

const send = (method: string, p: string, opts: { body?: string; headers?: Record<string, string> } = {}) =>
  fetch(`${app.baseUrl}${p}`, {
    method,
    headers: {
      authorization: `Bearer ${adminToken}`,
      ...(opts.body !== undefined && { "content-type": "application/json" }),
      ...opts.headers,
    },
    ...(opts.body !== undefined && { body: opts.body }),
    redirect: "manual",
    signal: AbortSignal.timeout(ANSWER_WITHIN_MS),
  });

describe("portcullis start – methods a route does not serve", () => {
  it.each([
    ["DELETE", "/api/v1/tools", "GET, HEAD, OPTIONS"],
    ["POST", "/api/v1/me", "GET, HEAD, OPTIONS"],
    ["PUT", "/api/health", "GET, HEAD, OPTIONS"],
    ["PATCH", "/api/v1/tokens/abc", "OPTIONS, DELETE"],
  ])("%s %s – 405 { error: { code: method_not_allowed } } with Allow: %s", async (method, p, allow) => {
    const res = await send(method, p);
    expect(res.status).toBe(405);
    expect(res.headers.get("allow")).toBe(allow);
    expect(res.headers.get("content-type")).toContain("application/json");
    expect(await res.json()).toEqual({ error: { code: "method_not_allowed", message: expect.any(String) as string } });
  });

  it.each([
    ["PUT", "/mcp"],
    ["PATCH", "/mcp/s/x"],
    ["PUT", "/mcp/code"],
  ])("%s %s – 405 as a JSON-RPC error with Allow", async (method, p) => {
    const res = await send(method, p, { body: "{}" });
    expect(res.status).toBe(405);
    expect(res.headers.get("allow")).toBe("GET, HEAD, OPTIONS, POST, DELETE");
    expect(await res.json()).toEqual({
      jsonrpc: "2.0",
      id: null,
      error: { code: -32000, message: expect.any(String) as string },
    });
  });
});

describe("portcullis start – path parameters that cannot be read", () => {
  it.each([
    ["%zz", "%zz"],
    ["%c0%80", "%c0%80"],
    ["%ed%a0%80", "%ed%a0%80"],
    ["<5,000 characters>", "x".repeat(5000)],
  ])("DELETE /api/v1/tokens/%s – 400 invalid_path", async (_label, param) => {
    const res = await send("DELETE", `/api/v1/tokens/${param}`);
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({ error: { code: "invalid_path", message: expect.any(String) as string } });
  });
});

/** An agent session token and an MCP session on `endpoint` (protocol 2025-11-25). */
async function mcpSession(endpoint: string): Promise<{ headers: Record<string, string>; sessionId: string }> {
  const created = await apiRequest<{ token: string }>(app.baseUrl, "/api/v1/sessions", {
    token: adminToken,
    body: { agentId: "fuzz", tools: ["*"] },
  });
  expect(created.status).toBe(201);
  const headers = {
    authorization: `Bearer ${created.body.token}`,
    accept: "application/json, text/event-stream",
    "content-type": "application/json",
  };
  const init = await fetch(`${app.baseUrl}${endpoint}`, {
    method: "POST",
    headers,
    body: JSON.stringify({
      jsonrpc: "2.0",
      id: 1,
      method: "initialize",
      params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "t", version: "1" } },
    }),
  });
  expect(init.status).toBe(200);
  await init.text();
  return { headers, sessionId: init.headers.get("mcp-session-id")! };
}

describe("portcullis start – the MCP GET event stream", () => {
  it("GET /mcp with accept: text/event-stream – the status line and headers arrive at once", async () => {
    const { headers: agent, sessionId } = await mcpSession("/mcp");
    const abort = new AbortController();
    const timer = setTimeout(
      () => abort.abort(new Error(`no headers within ${ANSWER_WITHIN_MS} ms`)),
      ANSWER_WITHIN_MS,
    );
    try {
      // fetch resolves when the headers are in; the keep-alive would come 15 s later.
      const stream = await fetch(`${app.baseUrl}/mcp`, {
        headers: {
          ...agent,
          accept: "text/event-stream",
          "mcp-session-id": sessionId,
          "mcp-protocol-version": "2025-11-25",
        },
        signal: abort.signal,
      });
      expect(stream.status).toBe(200);
      expect(stream.headers.get("content-type")).toBe("text/event-stream");
    } finally {
      clearTimeout(timer);
      abort.abort();
    }
  });
});

describe("fuzz: the MCP endpoints behind Next.js answer hostile bodies with JSON-RPC, in time", () => {
  it(
    "POST /mcp and /mcp/code with hostile JSON-RPC bodies, with and without a session",
    { timeout: fuzzTimeoutMs(40_000) },
    async () => {
      const sessions = { "/mcp": await mcpSession("/mcp"), "/mcp/code": await mcpSession("/mcp/code") };
      await fc.assert(
        fc.asyncProperty(
          fc.constantFrom("/mcp", "/mcp/code"),
          fc.boolean(),
          hostileJsonRpcBody,
          async (endpoint, withSession, b) => {
            const s = sessions[endpoint];
            const res = await send("POST", endpoint, {
              body: typeof b === "string" ? b : JSON.stringify(b),
              headers: {
                ...s.headers,
                ...(withSession && { "mcp-session-id": s.sessionId, "mcp-protocol-version": "2025-11-25" }),
              },
            });
            const text = await res.text();
            expect(res.status, text.slice(0, 300)).toBeLessThan(500);
            if (res.status === 202) return;
            const lines = res.headers.get("content-type")?.includes("text/event-stream")
              ? text
                  .split("\n")
                  .filter((l) => l.startsWith("data: {"))
                  .map((l) => l.slice(6))
              : [text];
            for (const line of lines)
              for (const m of [JSON.parse(line) as unknown].flat()) expect(m).toMatchObject({ jsonrpc: "2.0" });
            if (res.status >= 400)
              expect(JSON.parse(text)).toMatchObject({ jsonrpc: "2.0", error: { code: expect.any(Number) as number } });
          },
        ),
        fuzzParams(80),
      );
    },
  );
});

describe("fuzz: every REST route answers hostile input with our error, in time", () => {
  const routes = loadRouteTable(path.join(REPO_ROOT, "app"), ["/api"]).filter(
    (r) => !r.pattern.startsWith("/api/auth"),
  );
  // A URL cannot carry a lone surrogate except as its UTF-8 bytes (%ed%a0%80, among the constants).
  const wellFormed = (s: string) => s.replaceAll(/[\ud800-\udfff]/g, "x");
  const segment = fc.oneof(
    hostileString.map((s) => encodeURIComponent(wellFormed(s))),
    fc.constantFrom("%zz", "%c0%80", "%ed%a0%80", "%", "%00", "..", "x".repeat(5000)),
  );
  const urlOf = (pattern: string, params: string[], query: string) =>
    pattern.replaceAll(/\[\.\.\.\w+\]|\[\w+\]/g, () => params.pop() ?? "p") + (query ? `?${query}` : "");
  const query = fc.oneof(
    fc.constant(""),
    fc
      .array(fc.tuple(hostileString, hostileString), { maxLength: 3 })
      .map((kv) => new URLSearchParams(kv.map(([k, v]) => [wellFormed(k), wellFormed(v)])).toString()),
    fc.constantFrom("a=%zz", "cursor=%ff", "limit=-1", "limit=1e9", "all=1&all=0"),
  );
  const body = fc.oneof(
    fc.constant(undefined),
    malformedJsonText,
    hostileJson.map((v) => JSON.stringify(v)),
  );

  // Bodies the schemas accept but for one hostile string: these reach the handlers and the database.
  const shaped = fc.oneof(
    fc.record({
      method: fc.constant("POST"),
      path: fc.constant("/api/v1/tokens"),
      body: fc.record({ name: hostileString }),
    }),
    fc.record({
      method: fc.constant("POST"),
      path: fc.constant("/api/v1/users"),
      body: fc.record({
        email: fc.oneof(
          hostileString,
          hostileString.map((s) => `${s}@example.com`),
        ),
        name: hostileString,
      }),
    }),
    fc.record({
      method: fc.constant("POST"),
      path: fc.constant("/api/v1/sessions"),
      body: fc.record({
        agentId: hostileString,
        tools: fc.array(hostileString, { minLength: 1, maxLength: 2 }),
        paths: fc.array(hostileString, { maxLength: 2 }),
      }),
    }),
    fc.record({
      method: fc.constant("POST"),
      path: fc.constant("/api/v1/secrets"),
      body: fc.record({ name: hostileString, value: hostileString }),
    }),
    fc.record({
      method: fc.constant("POST"),
      path: fc.constant("/api/v1/grants"),
      body: fc.record({ kind: fc.constantFrom("tool", "path"), pattern: hostileString, role: fc.constant("USER") }),
    }),
    fc.record({
      method: fc.constant("POST"),
      path: fc.constant("/api/v1/settings/redaction/preview"),
      body: fc.record({ text: hostileString }),
    }),
    fc.record({
      method: fc.constant("POST"),
      path: fc.constant("/api/v1/policy/simulate"),
      body: fc.record(
        { tool: hostileString, arguments: fc.dictionary(hostileString, hostileString, { maxKeys: 2 }) },
        { requiredKeys: [] },
      ),
    }),
  );

  it("bodies that match a schema but for hostile strings", { timeout: fuzzTimeoutMs(60_000) }, async () => {
    await fc.assert(
      fc.asyncProperty(shaped, async ({ method, path: p, body: b }) => {
        const res = await send(method, p, { body: JSON.stringify(b) });
        const text = await res.text();
        expect(res.status, `${method} ${p} ${JSON.stringify(b).slice(0, 200)}: ${text.slice(0, 300)}`).toBeLessThan(
          500,
        );
        if (res.status >= 400)
          expect(JSON.parse(text)).toEqual({
            error: expect.objectContaining({ code: expect.stringMatching(/^[a-z_]+$/) as string }) as unknown,
          });
      }),
      fuzzParams(100),
    );
  });

  it("methods × path parameters × query strings × bodies", { timeout: fuzzTimeoutMs(60_000) }, async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...routes),
        fc.constantFrom("GET", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"),
        fc.array(segment, { minLength: 3, maxLength: 3 }),
        query,
        body,
        async (route, method, params, q, b) => {
          const res = await send(method, urlOf(route.pattern, params, q), {
            ...(b !== undefined && method !== "GET" && { body: b }),
          });
          // An event stream (GET /api/v1/approvals/events) stays open: its status and headers are the answer.
          const text = res.headers.get("content-type")?.includes("text/event-stream")
            ? (await res.body?.cancel(), "")
            : await res.text();
          expect(res.status, `${method} ${route.pattern}: ${text.slice(0, 300)}`).toBeLessThan(500);
          if (res.status >= 400) {
            expect(
              res.headers.get("content-type"),
              `${res.status} ${method} ${route.pattern}: ${text.slice(0, 300)}`,
            ).toContain("application/json");
            expect(JSON.parse(text)).toEqual({
              error: expect.objectContaining({
                code: expect.stringMatching(/^[a-z_]+$/) as string,
                message: expect.any(String) as string,
              }) as unknown,
            });
          }
        },
      ),
      fuzzParams(120),
    );
    expect((await apiRequest(app.baseUrl, "/api/health")).status).toBe(200);
  });
});
