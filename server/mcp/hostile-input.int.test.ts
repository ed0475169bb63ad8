// Bad input on every MCP endpoint (/mcp, /mcp/s/<server>, /mcp/code), over real HTTP with a real upstream:
// each request is answered, within a time limit, with a well-formed JSON-RPC answer or error (never a bare 500,
// never a stream that does not end), and the gateway keeps serving. Fixed cases first, then fast-check
// properties over bodies and headers (a few seeded runs in CI; `npm run fuzz` for a long run).
import { Ajv2020 } from "ajv/dist/2020.js";
import type { ValidateFunction } from "ajv";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { insertUser, userContext } from "../test/contexts";
import { fuzzParams, fuzzTimeoutMs, hostileJson, hostileJsonRpcBody, hostileString } from "../test/fuzz";
import {
  fixtureEvents,
  misbehavingServer,
  removeTempDirs,
  startTestGateway,
  tempDir,
  userWithToken,
  type TestGateway,
} from "../test/gateway-harness";
import { createTestDb, truncateAll } from "../test/test-db";

const ANSWER_WITHIN_MS = 5_000;
const ENDPOINTS = ["/mcp", "/mcp/s/fixture", "/mcp/code"] as const;
const VERSIONS = ["2025-06-18", "2025-11-25"] as const;

type Answer = { status: number; contentType: string; messages: unknown[]; text: string };

const db = createTestDb();
let tg: TestGateway;
let token = "";
let fixtureDir = "";
/** Validates arguments against the fixture's `counted` schema, as registered (set in beforeAll). */
let validCounted: ValidateFunction;
/** One initialized MCP session per endpoint and protocol version. */
const sessions = new Map<string, string>();

const initialize = (version: string, extra: Record<string, unknown> = {}) => ({
  jsonrpc: "2.0",
  id: 1,
  method: "initialize",
  params: { protocolVersion: version, capabilities: {}, clientInfo: { name: "fuzz", version: "1" }, ...extra },
});

/** POSTs `body` (text as is, anything else as JSON) and reads the whole answer; fails past the time limit. */
async function post(
  path: string,
  body: unknown,
  headers: Record<string, string> = {},
): Promise<Answer & { sessionId: string | null }> {
  const res = await fetch(new URL(path, tg.http.url), {
    method: "POST",
    body: typeof body === "string" ? body : JSON.stringify(body),
    headers: {
      authorization: `Bearer ${token}`,
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
      ...headers,
    },
    signal: AbortSignal.timeout(ANSWER_WITHIN_MS),
  });
  const text = await res.text();
  const contentType = res.headers.get("content-type") ?? "";
  return {
    status: res.status,
    contentType,
    text,
    messages: parseMessages(contentType, text),
    sessionId: res.headers.get("mcp-session-id"),
  };
}

function parseMessages(contentType: string, text: string): unknown[] {
  if (contentType.includes("text/event-stream")) {
    return text
      .split("\n")
      .filter((l) => l.startsWith("data: ") && l.length > "data: ".length)
      .map((l) => JSON.parse(l.slice("data: ".length)) as unknown);
  }
  if (!text) return [];
  const parsed = JSON.parse(text) as unknown;
  return Array.isArray(parsed) ? parsed : [parsed];
}

/** Every answer is a status below 500 and JSON-RPC: results or errors with a numeric code and a message. */
function expectWellFormed(a: Answer) {
  expect(a.status, a.text).toBeLessThan(500);
  if (a.status === 202) return;
  expect(a.contentType).toMatch(/application\/json|text\/event-stream/);
  for (const m of a.messages) {
    expect(m).toMatchObject({ jsonrpc: "2.0" });
    const error = (m as { error?: { code: unknown; message: unknown } }).error;
    if (error)
      expect(error).toMatchObject({ code: expect.any(Number) as number, message: expect.any(String) as string });
  }
}

async function sessionFor(path: string, version: string): Promise<string> {
  const key = `${path} ${version}`;
  if (!sessions.has(key)) {
    const res = await post(path, initialize(version));
    expect(res.status, res.text).toBe(200);
    sessions.set(key, res.sessionId!);
  }
  return sessions.get(key)!;
}

beforeAll(async () => {
  await truncateAll(db);
  tg = await startTestGateway();
  const admin = userContext(await insertUser(db, { role: "ADMIN" }));
  fixtureDir = await tempDir("hostile");
  const { server, tools } = await tg.gateway.registry.register(admin, misbehavingServer(fixtureDir, { slug: "fixture" }));
  if (server.status !== "HEALTHY") throw new Error(server.lastError ?? "fixture not healthy");
  // The fixture's `counted` tool as the gateway registered it: { name: string ≥ 1, count?: 1..10, pair?: [string, number] }.
  validCounted = new Ajv2020({ strict: false }).compile(tools.find((t) => t.name === "fixture__counted")!.inputSchema);
  token = (await userWithToken(db)).token;
});

afterAll(async () => {
  await tg?.close();
  await db.$disconnect();
  await removeTempDirs();
});

describe.each(ENDPOINTS)("POST %s – malformed bodies", (path) => {
  it.each([
    ["null", "null"],
    ["[null]", "[null]"],
    ["[]", "[]"],
    ["[initialize, null]", JSON.stringify([initialize("2025-06-18"), null])],
  ])("a body of %s is -32600 Invalid Request, with and without a session", async (_label, body) => {
    for (const version of VERSIONS) {
      const sessionHeaders: Record<string, string> = {
        "mcp-session-id": await sessionFor(path, version),
        "mcp-protocol-version": version,
      };
      for (const headers of [{}, sessionHeaders]) {
        const res = await post(path, body, headers);
        expect(res.status).toBe(400);
        expect(res.messages).toEqual([
          {
            jsonrpc: "2.0",
            id: null,
            error: { code: -32600, message: expect.stringMatching(/^Invalid Request: /) as string },
          },
        ]);
      }
    }
  });

  it("a tools/call whose arguments nest 300,000 levels deep is -32600, not a stack overflow", async () => {
    const depth = 300_000;
    const body = `{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"counted","arguments":{"a":${"[".repeat(depth)}${"]".repeat(depth)}}}}`;
    const res = await post(path, body, {
      "mcp-session-id": await sessionFor(path, "2025-11-25"),
      "mcp-protocol-version": "2025-11-25",
    });
    expect(res.status).toBe(400);
    expect(res.messages).toEqual([
      {
        jsonrpc: "2.0",
        id: null,
        error: { code: -32600, message: "Invalid Request: the body nests deeper than 128 levels" },
      },
    ]);
  });

  it.each([
    ["a NUL in clientInfo", { clientInfo: { name: "a\u0000", version: "1" } }, "/clientInfo/name"],
    ["a lone surrogate in clientInfo", { clientInfo: { name: "x", version: "\ud800" } }, "/clientInfo/version"],
    ["a NUL in a capability key", { capabilities: { "\u0000": {} } }, "/capabilities/\\u0000"],
    [
      "a lone surrogate in a capability key",
      { capabilities: { sampling: { "\udc00": true } } },
      "/capabilities/sampling/\\udc00",
    ],
  ])("initialize with %s is -32602 Invalid params naming the path", async (_label, extra, at) => {
    const res = await post(path, initialize("2025-11-25", extra));
    expect(res.status).toBe(400);
    expect(res.messages).toEqual([
      {
        jsonrpc: "2.0",
        id: null,
        error: { code: -32602, message: `Invalid params: ${at} contains a NUL character or a lone surrogate` },
      },
    ]);
  });
});

describe("POST /mcp/s/<server> – answers that hold NUL or lone surrogates are sent and the stream ends", () => {
  it.each(VERSIONS)(
    'protocol %s: the request ids "\\u0000" and "\\ud800" are answered with those ids',
    async (version) => {
      const headers = {
        "mcp-session-id": await sessionFor("/mcp/s/fixture", version),
        "mcp-protocol-version": version,
      };
      for (const id of ["\u0000", "\ud800", "a\u0000b"]) {
        const ping = await post("/mcp/s/fixture", JSON.stringify({ jsonrpc: "2.0", id, method: "ping" }), headers);
        expect(ping.status).toBe(200);
        expect(ping.messages).toContainEqual({ jsonrpc: "2.0", id, result: {} });
        // A relayed request: answered (a result, or an error when it cannot be audited), never left hanging.
        const listed = await post(
          "/mcp/s/fixture",
          JSON.stringify({ jsonrpc: "2.0", id, method: "tools/list" }),
          headers,
        );
        expect(listed.messages).toContainEqual(expect.objectContaining({ jsonrpc: "2.0", id }));
      }
    },
  );
});

describe("fuzz: every MCP endpoint answers everything well-formed and in time", () => {
  it(
    "POST bodies: JSON-RPC messages with hostile ids, methods, params, batches, malformed and deeply nested JSON",
    { timeout: fuzzTimeoutMs(40_000) },
    async () => {
      await fc.assert(
        fc.asyncProperty(
          fc.constantFrom(...ENDPOINTS),
          fc.constantFrom(...VERSIONS),
          fc.boolean(),
          hostileJsonRpcBody,
          async (path, version, withSession, b) => {
            const headers: Record<string, string> = withSession
              ? { "mcp-session-id": await sessionFor(path, version), "mcp-protocol-version": version }
              : {};
            expectWellFormed(await post(path, b, headers));
          },
        ),
        fuzzParams(150),
      );
    },
  );

  // What an HTTP client can send at all: printable ASCII (fetch refuses controls and, in some headers, more).
  const headerValue = fc.string({
    unit: fc.integer({ min: 0x20, max: 0x7e }).map((c) => String.fromCharCode(c)),
    maxLength: 300,
  });
  it(
    "headers: hostile session ids, protocol versions, accept and content types",
    { timeout: fuzzTimeoutMs(30_000) },
    async () => {
      await fc.assert(
        fc.asyncProperty(
          fc.constantFrom(...ENDPOINTS),
          fc.record(
            {
              "mcp-session-id": headerValue,
              "mcp-protocol-version": fc.oneof(fc.constantFrom(...VERSIONS, "2024-11-05", "1999-01-01"), headerValue),
              accept: fc.oneof(fc.constant("application/json, text/event-stream"), headerValue),
              "content-type": fc.oneof(fc.constant("application/json"), headerValue),
              "last-event-id": headerValue,
            },
            { requiredKeys: [] },
          ),
          fc.constantFrom<unknown>({ jsonrpc: "2.0", id: 2, method: "tools/list" }, initialize("2025-11-25"), {
            jsonrpc: "2.0",
            method: "notifications/initialized",
          }),
          async (path, headers, b) => expectWellFormed(await post(path, b, headers)),
        ),
        fuzzParams(60),
      );
    },
  );

  const argument = fc.oneof(
    hostileString,
    fc.integer({ min: -5, max: 15 }),
    fc.double(),
    fc.constant(null),
    hostileJson,
  );
  const countedArgs = fc.oneof(
    fc.record(
      {
        name: fc.oneof(fc.string({ minLength: 1, maxLength: 10 }), argument),
        count: fc.oneof(fc.integer({ min: 1, max: 10 }), argument),
        pair: fc.oneof(fc.tuple(fc.string(), fc.integer()), fc.array(argument, { maxLength: 3 })),
      },
      { requiredKeys: [] },
    ),
    fc.dictionary(hostileString, argument, { maxKeys: 3 }),
    argument,
  );
  const textOf = (m: unknown) => (m as { result?: { content?: { text?: string }[] } }).result?.content?.[0]?.text ?? "";

  it(
    "tool arguments against the tool's schema, 8 calls at a time: only valid ones reach the upstream, each answer is its own",
    { timeout: fuzzTimeoutMs(40_000) },
    async () => {
      let id = 1000;
      await fc.assert(
        fc.asyncProperty(
          fc.array(fc.tuple(fc.constantFrom("/mcp", "/mcp/s/fixture"), countedArgs), { minLength: 1, maxLength: 8 }),
          async (calls) => {
            const before = fixtureEvents(fixtureDir).length;
            const answers = await Promise.all(
              calls.map(async ([path, args]) => {
                const callId = ++id;
                const name = path === "/mcp" ? "fixture__counted" : "counted";
                const res = await post(
                  path,
                  { jsonrpc: "2.0", id: callId, method: "tools/call", params: { name, arguments: args } },
                  { "mcp-session-id": await sessionFor(path, "2025-11-25"), "mcp-protocol-version": "2025-11-25" },
                );
                expectWellFormed(res);
                return { callId, args, answer: res.messages.find((m) => (m as { id?: unknown }).id === callId) };
              }),
            );
            // Arguments holding text PostgreSQL cannot store (NUL, a lone surrogate) are refused invalid_arguments
            // (they could be neither audited nor held as they are); one such call no longer fails the others.
            for (const { callId, args, answer } of answers) {
              expect(answer, `call ${callId} has no answer of its own`).toBeDefined();
              const runs = validCounted(args) && unstorableText(args) === null;
              if (runs) expect(textOf(answer), `${JSON.stringify(args)} → ${JSON.stringify(answer)}`).toMatch(/^counted ok/);
              else expect(textOf(answer)).not.toMatch(/^counted ok/);
            }
            const reached = fixtureEvents(fixtureDir)
              .slice(before)
              .filter((e) => e.event === "call" && e.tool === "counted");
            for (const e of reached)
              expect(validCounted(e.args) && unstorableText(e.args) === null, `the upstream received ${JSON.stringify(e.args)}`).toBe(true);
          },
        ),
        fuzzParams(25),
      );
    },
  );

  it("after the fuzzing, every endpoint still serves a clean call", async () => {
    for (const path of ENDPOINTS) {
      const res = await post(
        path,
        { jsonrpc: "2.0", id: 99, method: "tools/list" },
        { "mcp-session-id": await sessionFor(path, "2025-11-25"), "mcp-protocol-version": "2025-11-25" },
      );
      expect(res.messages).toContainEqual(
        expect.objectContaining({
          id: 99,
          result: expect.objectContaining({ tools: expect.any(Array) as unknown[] }) as unknown,
        }),
      );
    }
  });
});

/** The JSON text of `v` when a key or string in it holds NUL or a lone surrogate (JSON.stringify escapes both). */
function unstorableText(v: unknown): string | null {
  const text = JSON.stringify(v) ?? "";
  return /\\u0000|\\ud[89a-f]/i.test(text) ? text : null;
}
