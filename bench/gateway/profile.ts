// Where a Portcullis tool call spends its time: each piece of the /mcp path timed on its own, in the
// gateway's process, one call at a time (no load), with the SQL statements each piece sends.
import { PrismaPg } from "@prisma/adapter-pg";
import { LATEST_PROTOCOL_VERSION } from "@modelcontextprotocol/sdk/types.js";
import pg from "pg";
import { createAuditWriter, pgSink, type AuditRow } from "../../server/audit/audit-writer";
import type { RequestContext } from "../../server/context";
import { PrismaClient } from "../../server/db/generated/client";
import { createChangeBus } from "../../server/events/change-bus";
import type { Gateway } from "../../server/index";
import { createLogger } from "../../server/logger";
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { AjvJsonSchemaValidator } from "@modelcontextprotocol/sdk/validation/ajv-provider.js";
import { GATEWAY_INFO } from "../../server/mcp/build-aggregate-server";
import { createMcpSessionCache, findMcpSession } from "../../server/mcp/mcp-sessions";
import { createCallLimiter } from "../../server/pipeline/rate-limit";
import { createSessionAuth } from "../../server/sessions/session-auth";
import { connectUpstream } from "../../server/upstream/upstream-client";
import { summarize, type Summary } from "./stats";

export type ProfileRow = { step: string; what: string; statements: number | null; summary: Summary };

export type ProfileInput = {
  gateway: Gateway;
  databaseUrl: string;
  token: string;
  upstreamUrl: string;
  tool: string;
  n: number;
  /** Each step stops after this long even if it has not made n calls. */
  stepMaxMs: number;
};

/** A pg pool that counts the statements its connections send. */
function countingPool(databaseUrl: string, max: number) {
  const pool = new pg.Pool({ connectionString: databaseUrl, max });
  pool.on("error", () => undefined); // an idle connection dropped at shutdown is no fault of the profile
  let statements = 0;
  pool.on("connect", (client) => {
    const query = client.query.bind(client) as (...args: unknown[]) => unknown;
    (client as unknown as { query: (...args: unknown[]) => unknown }).query = (...args: unknown[]) => {
      statements++;
      return query(...args);
    };
  });
  return { pool, statements: () => statements };
}

/** A Prisma client on a counting pool. */
function countingDb(databaseUrl: string) {
  const { pool, statements } = countingPool(databaseUrl, 2);
  const db = new PrismaClient({ adapter: new PrismaPg(pool) });
  return { db, statements, close: async () => db.$disconnect().then(() => pool.end()) };
}

/** Latency of `fn` over `n` calls made by `workers` concurrent loops (worker w passes w as its second argument). */
async function time(
  n: number,
  fn: (i: number, worker: number) => Promise<unknown>,
  workers: number,
  maxMs: number,
): Promise<Summary> {
  for (let i = 0; i < Math.max(20, n / 10); i++) await fn(i, i % workers);
  const deadline = performance.now() + maxMs;
  const ms = new Float64Array(n);
  let next = 0;
  let done = 0;
  let failed = false;
  // Every worker is awaited even after one fails, so no query is still running when the pools close.
  const results = await Promise.allSettled(
    Array.from({ length: workers }, async (_, w) => {
      while (next < n && !failed && performance.now() < deadline) {
        const i = next++;
        const t = performance.now();
        try {
          await fn(i, w);
        } catch (err) {
          failed = true;
          throw err;
        }
        ms[done++] = performance.now() - t;
      }
    }),
  );
  const rejected = results.find((r) => r.status === "rejected");
  if (rejected) throw rejected.reason;
  return summarize(ms, done);
}

function mcpRequest(token: string, body: unknown, sessionId?: string): Request {
  return new Request("http://127.0.0.1/mcp", {
    method: "POST",
    headers: {
      authorization: `Bearer ${token}`,
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
      "mcp-protocol-version": LATEST_PROTOCOL_VERSION,
      ...(sessionId ? { "mcp-session-id": sessionId } : {}),
    },
    body: JSON.stringify(body),
  });
}

export async function profileGateway(input: ProfileInput): Promise<ProfileRow[]> {
  const { gateway, databaseUrl, token, n } = input;
  const text = "x".repeat(64);
  const counted = countingDb(databaseUrl);
  const rawPool = new pg.Pool({ connectionString: databaseUrl, max: 1 });
  rawPool.on("error", () => undefined);
  const asyncCommit = new pg.Client({ connectionString: databaseUrl });
  asyncCommit.on("error", () => undefined);
  await asyncCommit.connect();
  await asyncCommit.query("SET synchronous_commit = off");
  const upstream = await connectUpstream({ transport: "HTTP", url: input.upstreamUrl, headers: {} });
  const rows: ProfileRow[] = [];
  const logger = createLogger("silent");
  // The hot path's caches, on a client of their own (so the cache-miss rows above them stay misses).
  const bus = createChangeBus(databaseUrl, logger);
  const cached = countingDb(databaseUrl);
  const tokenCache = createSessionAuth({ db: cached.db, bus, logger });
  // A TTL of 0: every lookup reads the session row (the cost without the cache).
  const uncachedAuth = createSessionAuth({ db: counted.db, bus, logger, ttlMs: 0 });
  const sessionCache = createMcpSessionCache(bus, logger);
  const writer = createAuditWriter(pgSink(databaseUrl));
  const callLimiter = createCallLimiter(databaseUrl, { perSessionPerMinute: 1e9, perToolPerMinute: 1e9 });
  const passThrough = callLimiter.middleware(async () => ({ content: [] }));
  const step = async (
    name: string,
    what: string,
    fn: (i: number, worker: number) => Promise<unknown>,
    opts: { count?: () => number; workers?: number; warm?: boolean } = {},
  ) => {
    let statements: number | null = null;
    if (opts.warm) await fn(-1, 0); // a cache's first use is a miss: count a hit
    if (opts.count) {
      const before = opts.count();
      await fn(-1, 0);
      statements = opts.count() - before;
    }
    rows.push({ step: name, what, statements, summary: await time(n, fn, opts.workers ?? 1, input.stepMaxMs) });
  };
  const counts = { count: counted.statements };

  try {
    const init = await gateway.mcp.handle(
      mcpRequest(token, {
        jsonrpc: "2.0",
        id: 0,
        method: "initialize",
        params: {
          protocolVersion: LATEST_PROTOCOL_VERSION,
          capabilities: {},
          clientInfo: { name: "bench-profile", version: "1" },
        },
      }),
      { kind: "aggregate" },
    );
    await init.text();
    const sessionId = init.headers.get("mcp-session-id");
    if (!sessionId) throw new Error(`initialize failed: ${init.status}`);
    const principal = await uncachedAuth.authenticate(token);
    const user = principal.user;
    const ctx: RequestContext = {
      actor: { type: "user", userId: user.id, email: user.email, role: user.role },
      requestId: "bench-profile",
      via: "agent_token",
    };
    const resolved = await gateway.registry.resolveTool(input.tool, 0);
    if ("error" in resolved) throw new Error(resolved.error);
    const auditData = {
      requestId: "bench-profile",
      action: "tool.called",
      category: "gateway",
      actorType: "user",
      userId: user.id,
      endpoint: "mcp",
      serverSlug: resolved.tool.serverSlug,
      toolName: resolved.tool.gatewayName,
      arguments: { keys: ["text"] },
      decision: "allow",
      status: "ok",
      durationMs: 1,
      resultBytes: 100,
      truncated: false,
      upstreamVersion: resolved.tool.version,
    };
    const auditSql = `INSERT INTO audit_events ("requestId","action","category","actorType","userId","endpoint","serverSlug","toolName","arguments","decision","status","durationMs","resultBytes","truncated","upstreamVersion")
      VALUES ($1,$2,$3,$4,$5,$6,$7,$8,$9,$10,$11,$12,$13,$14,$15) RETURNING id`;
    const auditValues = Object.values(auditData).map((v) => (typeof v === "object" ? JSON.stringify(v) : v));

    await step("pg round trip", "`SELECT 1` over node-postgres: the floor for any statement", () =>
      rawPool.query("SELECT 1"),
    );
    await step(
      "Prisma round trip",
      "`SELECT 1` through Prisma 7 + @prisma/adapter-pg",
      () => counted.db.$queryRaw`SELECT 1`,
      counts,
    );
    await step(
      "token lookup (uncached)",
      "agent_sessions by token hash, with its user (no cache)",
      () => uncachedAuth.authenticate(token),
      counts,
    );
    await new Promise((r) => setTimeout(r, 200)); // the caches serve once the change bus listens
    await step(
      "token (cached)",
      "the MCP endpoints' session cache: SHA-256 and a map lookup",
      () => tokenCache.authenticate(token),
      { count: cached.statements, warm: true },
    );
    await step(
      "session lookup (uncached)",
      "findMcpSession: mcp_sessions by id",
      () => findMcpSession(counted.db, undefined, sessionId, principal.session.id, "mcp"),
      counts,
    );
    await step(
      "session (cached)",
      "findMcpSession with the gateway's session cache",
      () => findMcpSession(cached.db, sessionCache, sessionId, principal.session.id, "mcp"),
      { count: cached.statements, warm: true },
    );
    await step(
      "audit insert (Prisma create)",
      "auditEvent.create, as the audit step wrote it before group commit",
      () => counted.db.auditEvent.create({ data: auditData }),
      counts,
    );
    const auditRow = { ...auditData, ip: null, ruleId: null, reason: null, errorCode: null } satisfies AuditRow;
    await step(
      "audit, group commit",
      "the gateway's audit writer (node-postgres): one multi-row INSERT per batch, a batch of 1 here",
      () => writer.write(auditRow),
    );
    await step("audit insert (pg)", "the same INSERT over node-postgres", () => rawPool.query(auditSql, auditValues));
    await step("audit insert (pg, async commit)", "the same INSERT with synchronous_commit = off", () =>
      asyncCommit.query(auditSql, auditValues),
    );
    const limitCall = (sessionKey: string) => ({
      tool: resolved.tool,
      arguments: { text },
      endpoint: "mcp" as const,
      sessionKey,
      signal: new AbortController().signal,
    });
    await step("rate limits", "the rate-limit step: session key, then tool key, from leased blocks", () =>
      passThrough(limitCall("profile-session"), ctx, {}),
    );
    await step(
      "rate limits, 32 sessions at once",
      "the same with 32 concurrent sessions (one tool row shared by all)",
      (_i, w) => passThrough(limitCall(`profile-session-${w}`), ctx, {}),
      { workers: 32 },
    );
    await step(
      "audit insert, 32 at once",
      "the Prisma audit insert (auditEvent.create) from 32 concurrent callers",
      () => gateway.db.auditEvent.create({ data: auditData }),
      {
        workers: 32,
      },
    );
    await step("audit, group commit, 32 at once", "the audit writer with 32 concurrent callers", () => writer.write(auditRow), {
      workers: 32,
    });
    await step("upstream call", "tools/call to the upstream with the gateway's upstream client", () =>
      upstream.client.callTool({ name: resolved.tool.name, arguments: { text } }),
    );
    await step("new SDK Server", "new Server(…) with its own Ajv, as buildAggregateServer does for every request", async () =>
      new Server(GATEWAY_INFO, { capabilities: { tools: { listChanged: true }, logging: {} } }),
    );
    const sharedValidator = new AjvJsonSchemaValidator();
    await step(
      "… with a shared validator",
      "new Server(…) given one jsonSchemaValidator for all (not what the gateway does)",
      async () =>
        new Server(GATEWAY_INFO, {
          capabilities: { tools: { listChanged: true }, logging: {} },
          jsonSchemaValidator: sharedValidator,
        }),
    );
    await step("pipeline", "the whole pipeline (audit, validate, rate limits, bound output, execute), in-process", () =>
      gateway.pipeline(
        { tool: resolved.tool, arguments: { text }, endpoint: "mcp", grant: principal.grant, signal: new AbortController().signal },
        ctx,
        {},
      ),
    );
    await step("handle()", "gateway.mcp.handle for a tools/call, in-process (no socket)", async (i) => {
      const res = await gateway.mcp.handle(
        mcpRequest(
          token,
          { jsonrpc: "2.0", id: i + 10, method: "tools/call", params: { name: input.tool, arguments: { text } } },
          sessionId,
        ),
        { kind: "aggregate" },
      );
      const body = await res.text();
      if (res.status !== 200 || !body.includes(text))
        throw new Error(`handle() answered ${res.status}: ${body.slice(0, 300)}`);
    });
    return rows;
  } finally {
    await upstream.close().catch(() => undefined);
    await callLimiter.close().catch(() => undefined);
    tokenCache.close();
    uncachedAuth.close();
    sessionCache.close();
    await writer.close();
    await bus.close().catch(() => undefined);
    await cached.close().catch(() => undefined);
    await asyncCommit.end().catch(() => undefined);
    await rawPool.end().catch(() => undefined);
    await counted.close().catch(() => undefined);
  }
}
