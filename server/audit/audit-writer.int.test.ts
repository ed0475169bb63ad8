// Audit events are group-committed: under concurrent load every call still has its own committed event
// before its answer. Nothing data-dependent loses one: unstorable text is sanitized, a refused batch is retried
// row by row, and events the database cannot take wait in the fsync'd spool (a call is answered with an error
// only when even that fails). All on the run's real PostgreSQL; "down" is a real TCP proxy that stops.
import { createServer, Socket, type Server } from "node:net";
import { readdir, readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { randomUUID } from "node:crypto";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { createAuditWriter, pgSink, type AuditSink } from "./audit-writer";
import { insertRows, MAX_VALUES_ROWS } from "./audit-sink";
import { auditRow } from "../test/audit-row";
import { insertUser, userContext } from "../test/contexts";
import {
  connectAgent,
  firstText,
  misbehavingServer,
  removeTempDirs,
  startTestGateway,
  tempDir,
  userWithToken,
  type Agent,
  type TestGateway,
} from "../test/gateway-harness";
import { createTestDb, testDatabaseUrl, truncateAll } from "../test/test-db";

describe("audit group commit", () => {
  const db = createTestDb();
  let tg: TestGateway;
  const agents: Agent[] = [];
  const toolCalls = () => db.auditEvent.count({ where: { action: "tool.called" } });

  beforeAll(async () => {
    await truncateAll(db);
    // The spool's place is taken by a file here: it cannot be opened, so an event the database refuses withholds its call.
    const dataDir = await tempDir("audit-gc-data");
    await writeFile(path.join(dataDir, "audit-spool"), "");
    tg = await startTestGateway({ env: { DATA_DIR: dataDir } });
    const admin = userContext(await insertUser(db, { role: "ADMIN" }));
    const { server } = await tg.gateway.registry.register(admin, misbehavingServer(await tempDir("audit-gc"), { slug: "gc" }));
    if (server.status !== "HEALTHY") throw new Error(server.lastError ?? "gc did not start");
    const { token } = await userWithToken(db);
    for (let i = 0; i < 10; i++) agents.push(await connectAgent(tg.mcpUrl, token));
  });

  afterAll(async () => {
    for (const ag of agents) await ag.close();
    await tg?.close();
    await db.$disconnect();
    await removeTempDirs();
  });

  it("50 concurrent calls leave 50 events, each committed before its answer", async () => {
    const before = await toolCalls();
    let answered = 0;
    const shortfalls: number[] = [];
    await Promise.all(
      Array.from({ length: 50 }, async (_, i) => {
        const result = await agents[i % agents.length]!.client.callTool({ name: "gc__counted", arguments: { name: `n${i}` } });
        expect(result.isError ?? false, firstText(result)).toBe(false);
        // Every call answered so far has its event committed already.
        const n = ++answered;
        const committed = (await toolCalls()) - before;
        if (committed < n) shortfalls.push(n - committed);
      }),
    );
    expect(shortfalls).toEqual([]);
    expect((await toolCalls()) - before).toBe(50);
    const rows = await db.auditEvent.findMany({ where: { action: "tool.called" }, orderBy: { id: "desc" }, take: 50 });
    expect(new Set(rows.map((r) => r.requestId)).size).toBe(50);
    expect(rows.every((r) => r.status === "ok" && r.toolName === "gc__counted" && r.endpoint === "mcp")).toBe(true);
    // occurredAt is set by the gateway and read back as the same instant.
    expect(rows.every((r) => Math.abs(r.occurredAt.getTime() - Date.now()) < 60_000)).toBe(true);
  });

  it("a call whose audit event can be neither committed nor spooled is answered with an error, not its result", async () => {
    // Make every new tool.called row fail its insert, as a full disk or a broken table would.
    await db.$executeRawUnsafe(`ALTER TABLE audit_events ADD CONSTRAINT test_refuse_tool_calls CHECK (action <> 'tool.called') NOT VALID`);
    try {
      const before = await toolCalls();
      await expect(agents[0]!.client.callTool({ name: "gc__counted", arguments: { name: "unaudited" } })).rejects.toThrow(/could not be audited/);
      expect(await toolCalls()).toBe(before);
    } finally {
      await db.$executeRawUnsafe(`ALTER TABLE audit_events DROP CONSTRAINT test_refuse_tool_calls`);
    }
    // The next call is audited again.
    const result = await agents[0]!.client.callTool({ name: "gc__counted", arguments: { name: "again" } });
    expect(result.isError ?? false).toBe(false);
  });
});

const row = auditRow;

/** A TCP proxy to the test database that can stop (connections refused, open ones cut) and start again. */
async function databaseProxy(): Promise<{ url: string; down(): Promise<void>; up(): Promise<void>; close(): Promise<void> }> {
  const target = new URL(testDatabaseUrl());
  const sockets = new Set<Socket>();
  let server: Server | undefined;
  let port = 0;
  const up = () =>
    new Promise<void>((resolve) => {
      server = createServer((client) => {
        const upstream = createConnectionTo(target, client);
        sockets.add(client).add(upstream);
      });
      server.listen(port, "127.0.0.1", () => {
        port = (server!.address() as { port: number }).port;
        resolve();
      });
    });
  const down = () =>
    new Promise<void>((resolve) => {
      for (const s of sockets) s.destroy();
      sockets.clear();
      server!.close(() => resolve());
    });
  await up();
  const url = new URL(target.href);
  url.hostname = "127.0.0.1";
  url.port = String(port);
  return { url: url.href, down, up, close: down };
}

function createConnectionTo(target: URL, client: Socket): Socket {
  const upstream = new Socket();
  upstream.connect(Number(target.port), target.hostname);
  client.pipe(upstream).pipe(client);
  const end = () => {
    client.destroy();
    upstream.destroy();
  };
  client.on("error", end).on("close", end);
  upstream.on("error", end).on("close", end);
  return upstream;
}

describe("audit writer on PostgreSQL", () => {
  const db = createTestDb();
  const stored = (toolName: string) => db.auditEvent.findMany({ where: { toolName }, orderBy: { id: "asc" } });

  afterAll(async () => {
    await db.$disconnect();
    await removeTempDirs();
  });

  it("stores NUL, lone surrogates and oversized values in every text column and jsonb key, sanitized and flagged", async () => {
    const writer = createAuditWriter(pgSink(testDatabaseUrl()));
    try {
      const bad = "a\u0000b\ud800c\udfffd";
      await writer.write(
        row("sanitized\u0000", {
          requestId: bad,
          ip: bad,
          endpoint: bad,
          serverSlug: "x".repeat(5000),
          mcpSessionId: bad,
          agentId: bad,
          sessionId: bad,
          targetType: bad,
          decision: bad,
          ruleId: bad,
          reason: bad,
          status: bad,
          errorCode: bad,
          upstreamVersion: bad,
          approvalId: bad,
          taskId: bad,
          intent: bad,
          durationMs: 2 ** 40,
          arguments: { [bad]: bad, list: [bad, { [bad]: 1 }], big: 10n },
          details: { [bad]: bad },
        }),
      );
      const [e] = await stored("sanitized\u2400");
      const clean = "a\u2400b\ufffdc\ufffdd";
      expect(e).toMatchObject({ requestId: clean, ip: clean, mcpSessionId: clean, reason: clean, intent: clean, status: clean, durationMs: 2 ** 31 - 1 });
      expect(e!.serverSlug).toMatch(/^x{512}…\[cut 4488 chars\]$/);
      expect(e!.arguments).toEqual({ [clean]: clean, list: [clean, { [clean]: 1 }], big: "10" });
      const details = e!.details as { sanitized: string[] };
      expect(details).toMatchObject({ [clean]: clean });
      expect(details.sanitized).toEqual(expect.arrayContaining(["toolName", "requestId", "serverSlug", "arguments", "details", "intent", "durationMs"]));
      // Values cut to their limits are cut between surrogate pairs, never inside one: stored as they are, not in the fallback form.
      await writer.write(row("cut-pairs", { intent: `${"a".repeat(1999)}😀`, reason: `${"b".repeat(3999)}😀`, arguments: { s: `x${"😀".repeat(10_000)}` } }));
      const [cut] = await stored("cut-pairs");
      expect(cut!.intent).toMatch(/^a{1999}…\[cut 2 chars\]$/);
      expect(cut!.reason).toMatch(/^b{3999}…\[cut 2 chars\]$/);
      expect(cut!.arguments).toMatchObject({ truncated: true, preview: expect.stringMatching(/^\{"s":"x(😀)+\ufffd$/) as unknown });
      expect(cut!.details).not.toMatchObject({ sanitized: ["fallback"] });
    } finally {
      await writer.close();
    }
  });

  it("prepares its statement once per connection under a name of its own; behind a transaction pooler it names none", async () => {
    // The spy calls through and keeps what each pool was asked.
    const spy = vi.spyOn(pg.Pool.prototype, "query");
    let calls: unknown[][];
    try {
      for (const transactionPooler of [false, true]) {
        const writer = createAuditWriter(pgSink(testDatabaseUrl(), { transactionPooler }));
        try {
          for (const n of [1, 2, 3]) await writer.write(row(`prepared-${String(transactionPooler)}-${String(n)}`));
        } finally {
          await writer.close();
        }
      }
      calls = [...spy.mock.calls];
    } finally {
      spy.mockRestore();
    }
    // What the sinks were asked, for these rows only (the gateway of this file has pools of its own).
    const sent = calls
      .map((args) => args[0] as { name?: string; text: string; values?: unknown[] })
      .filter((config) => typeof config === "object" && JSON.stringify(config.values ?? []).includes("prepared-"));
    expect(sent.map((c) => c.name)).toEqual(["portcullis_audit_1", "portcullis_audit_1", "portcullis_audit_1", undefined, undefined, undefined]);
    expect(new Set(sent.map((c) => c.text)).size).toBe(1);
    expect(sent[0]!.text).toMatch(/ VALUES \(\$1, /); // one row: a VALUES list, not the JSON array
    for (const pooler of ["false", "true"]) for (const n of [1, 2, 3]) expect(await stored(`prepared-${pooler}-${String(n)}`)).toHaveLength(1);
  });

  it("stores a row the same whether its batch goes as a VALUES list (up to MAX_VALUES_ROWS rows) or as the JSON array", async () => {
    const sink = pgSink(testDatabaseUrl());
    // Every kind of value a row holds: nested and odd JSON (a string, an array, a homoglyph, an emoji, a quote),
    // numbers and a number where text goes, a boolean, an explicit null and a missing column (both NULL).
    const odd = (toolName: string, extra: Record<string, unknown> = {}) => ({
      ...auditRow(toolName, { arguments: { nested: { list: [1, "two", null, { deep: true }] }, quote: `a "q" \\ b`, cyrillic: "аdmin", emoji: "🔑" }, details: { note: "x", n: 1.5 } }),
      requestId: 42,
      upstreamVersion: null,
      eventId: randomUUID(),
      occurredAt: "2026-12-03T10:11:12.345Z",
      ...extra,
    });
    const columns = (r: Record<string, unknown>) => {
      const { id: _id, eventId: _eventId, toolName: _toolName, ...rest } = r;
      return rest;
    };
    try {
      await insertRows(sink, [odd("form-values")], 10_000);
      const many = Array.from({ length: MAX_VALUES_ROWS + 1 }, (_, i) => odd(`form-json-${String(i)}`));
      await insertRows(sink, many, 10_000);
      const [values] = await stored("form-values");
      const [json] = await stored("form-json-0");
      expect(values).toBeDefined();
      expect(columns(values!)).toEqual(columns(json!));
      expect(values!.requestId).toBe("42");
      expect(values!.arguments).toEqual(odd("x").arguments);
      expect(values!.occurredAt.toISOString()).toBe("2026-12-03T10:11:12.345Z");
      // A JSON string in a jsonb column stays a string; an outcome completes its record in either form.
      const record = odd("form-outcome", { status: "started", details: "just text" });
      await insertRows(sink, [record], 10_000);
      await insertRows(sink, [odd("form-other"), { ...record, status: "ok", durationMs: 7 }], 10_000);
      const [completed] = await stored("form-outcome");
      expect(completed).toMatchObject({ status: "ok", durationMs: 7, details: "just text" });
      for (let i = 0; i < many.length; i++) expect(await stored(`form-json-${String(i)}`)).toHaveLength(1);
    } finally {
      await sink.close!();
    }
  });

  it("retries a batch the database refuses row by row: the other rows of the batch commit", async () => {
    await db.$executeRawUnsafe(`ALTER TABLE audit_events ADD CONSTRAINT test_refuse_poison CHECK ("toolName" IS NULL OR "toolName" <> 'poison') NOT VALID`);
    const sink = pgSink(testDatabaseUrl());
    const batches: number[] = [];
    const counting: AuditSink = { insert: (rows) => (batches.push(rows.length), sink.insert(rows)), execute: (sql, json) => sink.execute(sql, json), close: () => sink.close!() };
    const writer = createAuditWriter(counting);
    try {
      const first = writer.write(row("batch-first"));
      // These arrive while the first insert runs: one batch of three, the middle one refused.
      const [a, poison, b] = [writer.write(row("batch-a")), writer.write(row("poison")).catch((err: unknown) => err), writer.write(row("batch-b"))];
      await first;
      await expect(a).resolves.toBeUndefined();
      await expect(b).resolves.toBeUndefined();
      // No spool: the one row the database refuses (in its last-resort form too) fails alone.
      expect(String(await poison)).toMatch(/test_refuse_poison/);
      expect(batches.slice(0, 2)).toEqual([1, 3]);
      expect((await stored("batch-a")).length + (await stored("batch-b")).length).toBe(2);
      expect(await stored("poison")).toEqual([]);
    } finally {
      await writer.close();
      await db.$executeRawUnsafe(`ALTER TABLE audit_events DROP CONSTRAINT test_refuse_poison`);
    }
  });

  it("while the database is down, events are fsync'd to the spool before write() resolves, and replayed in order once when it is back", async () => {
    const proxy = await databaseProxy();
    const spoolDir = await tempDir("audit-spool");
    const spooled = async () => {
      const lines: string[] = [];
      for (const f of await readdir(spoolDir)) lines.push(...(await readFile(path.join(spoolDir, f), "utf8")).split("\n").filter(Boolean));
      return lines;
    };
    // Batches of two: the replay reads the spool back from disk a batch at a time.
    const writer = createAuditWriter(pgSink(proxy.url), { spoolDir, timeoutMs: 2_000, maxBatch: 2 });
    const names = ["down-1", "down-2", "down-3"];
    let copy: string[] | undefined;
    try {
      await writer.write(row("before-down"));
      await proxy.down();
      for (const [i, name] of names.entries()) {
        await writer.write(row(name));
        expect((await spooled()).map((l) => (JSON.parse(l) as { toolName: string }).toolName)).toEqual(names.slice(0, i + 1));
      }
      expect(writer.stats?.().spool).toMatchObject({ pending: 3, replayed: 0 });
      expect(writer.stats?.().spool?.oldestSince).toBeLessThanOrEqual(Date.now());
      copy = await spooled();
      await proxy.up();
      await writer.replayed?.();
      expect(writer.stats?.().spool).toMatchObject({ pending: 0, replayed: 3, oldestSince: null });
      expect(await spooled()).toEqual([]);
      const rows = await db.auditEvent.findMany({ where: { toolName: { in: names } }, orderBy: { id: "asc" } });
      expect(rows.map((r) => r.toolName)).toEqual(names);
    } finally {
      await writer.close();
      await proxy.close();
    }

    // A process that died with a spool: its file (these rows, already replayed, one new row and a line torn by
    // the crash) is claimed at start by the next writer and replayed; rows already there are not duplicated.
    const crashed = await tempDir("audit-spool-crashed");
    if (!copy) throw new Error("nothing was spooled");
    const fresh = { ...(JSON.parse(copy[2]!) as Record<string, unknown>), eventId: randomUUID(), toolName: "down-4" };
    await writeFile(path.join(crashed, "999999999-dead.jsonl"), [...copy, JSON.stringify(fresh), '{"eventId":"torn'].join("\n"));
    const next = createAuditWriter(pgSink(testDatabaseUrl()), { spoolDir: crashed, maxBatch: 2 });
    try {
      await next.write(row("after-restart"));
      await next.replayed?.();
      const rows = await db.auditEvent.findMany({ where: { toolName: { in: [...names, "down-4", "after-restart"] } }, orderBy: { id: "asc" } });
      expect(rows.map((r) => r.toolName)).toEqual([...names, "down-4", "after-restart"]);
    } finally {
      await next.close();
    }
    expect(await readdir(crashed)).toEqual([]);
  });
});
