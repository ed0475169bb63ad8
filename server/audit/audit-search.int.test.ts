// Audit search on real PostgreSQL: every filter, both sorts and keyset paging, the text filter, the exact and
// estimated totals, the story of one request, the streamed export, the append-only trigger and retention.
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { ZAuditExportQuery, ZAuditQuery, type TAuditEvent } from "../../lib/audit-schemas";
import { Prisma, type Db, type User } from "../db/client";
import { isGatewayError } from "../errors";
import { insertUser, userContext } from "../test/contexts";
import { createTestDb, truncateAll } from "../test/test-db";
import { deleteExpiredAudit } from "./audit-retention";
import { csvField, exportAudit, getAuditEventDetail, searchAudit, textFilterSql } from "./audit-search";

const T0 = Date.parse("2026-06-01T12:00:00.000Z");
const minutes = (m: number) => new Date(T0 + m * 60_000);

type Seed = Partial<Omit<TAuditEvent, "id" | "occurredAt" | "userEmail" | "parentId" | "arguments" | "details">> & { at: number; arguments?: object; details?: object };

async function seed(db: Db, rows: Seed[]) {
  await db.auditEvent.createMany({
    data: rows.map(({ at, arguments: args, details, ...r }) => ({
      action: "tool.called",
      category: "gateway",
      actorType: "user",
      status: "ok",
      ...r,
      occurredAt: minutes(at),
      ...(args === undefined ? {} : { arguments: args }),
      ...(details === undefined ? {} : { details }),
    })),
  });
}

const search = (db: Db, q: Record<string, string | number>) => searchAudit(db, ZAuditQuery.parse(q));
const ids = (items: TAuditEvent[]) => items.map((e) => e.requestId);

async function readAll(stream: ReadableStream<Uint8Array>): Promise<string> {
  let text = "";
  const decoder = new TextDecoder();
  for await (const chunk of stream as unknown as AsyncIterable<Uint8Array>) text += decoder.decode(chunk, { stream: true });
  return text + decoder.decode();
}

/** A minimal RFC 4180 reader: fields, quotes, doubled quotes, line breaks inside quotes. */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = "";
  let quoted = false;
  const endField = () => {
    row.push(field);
    field = "";
  };
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        field += '"';
        i++;
      } else if (c === '"') quoted = false;
      else field += c;
    } else if (c === '"') quoted = true;
    else if (c === ",") endField();
    else if (c === "\r" && text[i + 1] === "\n") {
      endField();
      rows.push(row);
      row = [];
      i++;
    } else field += c;
  }
  if (field || row.length) {
    endField();
    rows.push(row);
  }
  return rows;
}

describe("audit search", () => {
  const db = createTestDb();
  let alice: User;
  let bob: User;
  let admin: User;

  beforeAll(async () => {
    await truncateAll(db);
    alice = await insertUser(db, { email: "alice@example.test" });
    bob = await insertUser(db, { email: "bob@example.test" });
    admin = await insertUser(db, { role: "ADMIN" });
    await seed(db, [
      { at: 0, requestId: "r1", userId: alice.id, agentId: "claude", sessionId: "s-a", serverSlug: "orders", toolName: "orders__query", arguments: { sql: "SELECT * FROM customers" }, decision: "allow", durationMs: 40 },
      { at: 1, requestId: "r2", userId: alice.id, agentId: "claude", sessionId: "s-a", serverSlug: "orders", toolName: "orders__export", arguments: { format: "csv" }, decision: "deny", status: "denied", category: "security", reason: "not on the whitelist", ruleId: "rule-1" },
      { at: 2, requestId: "r3", userId: bob.id, agentId: "cursor", sessionId: "s-b", serverSlug: "files", toolName: "files__read_file", arguments: { path: "/srv/Reports/q3_100%.csv" }, decision: "allow", status: "error", errorCode: "upstream_timeout", durationMs: 30_000 },
      { at: 3, requestId: "r4", userId: bob.id, agentId: "cursor", sessionId: "s-b", serverSlug: "files", toolName: "files__write_file", arguments: { path: "/tmp/x", content: "[REDACTED]" }, decision: "require_approval", status: "held", approvalId: "ap-1", taskId: "task-1", durationMs: 5 },
      { at: 4, requestId: "r5", userId: admin.id, action: "user.created", category: "admin", targetType: "user", targetId: bob.id },
      { at: 5, requestId: "r6", userId: alice.id, agentId: "claude", sessionId: "s-a2", serverSlug: "orders", toolName: "orders__query", arguments: { sql: 'SELECT "name", total FROM orders, customers' }, decision: "allow", durationMs: 12 },
    ]);
  });

  afterAll(async () => {
    await db.$disconnect();
  });

  it("answers newest first with exact totals and string ids", async () => {
    const page = await search(db, {});
    expect(ids(page.items)).toEqual(["r6", "r5", "r4", "r3", "r2", "r1"]);
    expect(page).toMatchObject({ total: 6, totalIsEstimate: false, nextCursor: null });
    expect(page.items[0]!.id).toMatch(/^\d+$/);
    expect(page.items[0]).toMatchObject({ occurredAt: minutes(5).toISOString(), userEmail: "alice@example.test", arguments: { sql: 'SELECT "name", total FROM orders, customers' } });
  });

  it.each([
    [{ user: "alice@example.test" }, ["r6", "r2", "r1"]],
    [{ user: "ALICE@Example.test" }, ["r6", "r2", "r1"]],
    [{ user: "nobody@example.test" }, []],
    [{ agent: "cursor" }, ["r4", "r3"]],
    [{ session: "s-a" }, ["r2", "r1"]],
    [{ tool: "orders__query" }, ["r6", "r1"]],
    [{ tool: "orders__*" }, ["r6", "r2", "r1"]],
    [{ tool: "orders_*" }, ["r6", "r2", "r1"]],
    [{ tool: "orders" }, []],
    [{ server: "files" }, ["r4", "r3"]],
    [{ status: "denied" }, ["r2"]],
    [{ status: "denied,error" }, ["r3", "r2"]],
    [{ decision: "require_approval" }, ["r4"]],
    [{ category: "admin" }, ["r5"]],
    [{ action: "user.*" }, ["r5"]],
    [{ action: "tool.called" }, ["r6", "r4", "r3", "r2", "r1"]],
    [{ from: minutes(2).toISOString(), to: minutes(4).toISOString() }, ["r4", "r3"]],
    [{ from: "2026-06-01T14:03:00+02:00" }, ["r6", "r5", "r4"]],
    [{ q: "customers" }, ["r6", "r1"]],
    [{ q: "CUSTOMERS" }, ["r6", "r1"]],
    [{ q: "reports/q3_100%" }, ["r3"]],
    [{ q: "q3_1" }, ["r3"]],
    [{ q: "100%.csv" }, ["r3"]],
    [{ q: "write_file" }, ["r4"]],
    [{ q: "whitelist" }, ["r2"]],
    [{ q: "zzz-nothing" }, []],
    [{ user: "alice@example.test", tool: "orders__query", q: "orders", from: minutes(1).toISOString() }, ["r6"]],
  ] as const)("filters %j", async (q, expected) => {
    const page = await search(db, q);
    expect(ids(page.items)).toEqual(expected);
    expect(page.total).toBe(expected.length);
  });

  it("a text search is served by the trigram index, which leaves out calls' request records until their outcome is written", async () => {
    const plan = await db.$transaction(async (tx) => {
      await tx.$executeRawUnsafe("SET LOCAL enable_seqscan = off");
      return tx.$queryRaw<{ "QUERY PLAN": unknown }[]>(Prisma.sql`EXPLAIN (FORMAT JSON) SELECT e.id FROM audit_events e WHERE ${textFilterSql("customers")}`);
    });
    expect(JSON.stringify(plan)).toContain("audit_events_search_trgm_idx");
  });

  it("filters by user id as well as e-mail", async () => {
    expect(ids((await search(db, { user: bob.id })).items)).toEqual(["r4", "r3"]);
  });

  it("sorts oldest first and slowest first", async () => {
    expect(ids((await search(db, { sort: "occurredAt" })).items)).toEqual(["r1", "r2", "r3", "r4", "r5", "r6"]);
    expect(ids((await search(db, { sort: "-durationMs" })).items)).toEqual(["r3", "r1", "r6", "r4", "r5", "r2"]);
  });

  it.each(["-occurredAt", "occurredAt", "-durationMs"])("pages with the cursor (%s) through every event once, in order", async (sort) => {
    const all = ids((await search(db, { sort, limit: 200 })).items);
    const seen: (string | null)[] = [];
    let cursor: string | undefined;
    for (let i = 0; i < 10; i++) {
      const page = await search(db, { sort, limit: 2, ...(cursor ? { cursor } : {}) });
      expect(page.total).toBe(6);
      seen.push(...ids(page.items));
      if (!page.nextCursor) break;
      cursor = page.nextCursor;
    }
    expect(seen).toEqual(all);
  });

  it("pages correctly through events that share a timestamp", async () => {
    await seed(db, Array.from({ length: 5 }, (_, i) => ({ at: 60, requestId: `same-${i}`, toolName: "tie__tool" })));
    const seen: (string | null)[] = [];
    let cursor: string | undefined;
    do {
      const page = await search(db, { tool: "tie__tool", limit: 2, ...(cursor ? { cursor } : {}) });
      seen.push(...ids(page.items));
      cursor = page.nextCursor ?? undefined;
    } while (cursor);
    expect(seen).toEqual(["same-4", "same-3", "same-2", "same-1", "same-0"]);
  });

  it("refuses a cursor that is not one, or one of another sort (422)", async () => {
    const first = await search(db, { limit: 1 });
    for (const [sort, cursor] of [["-occurredAt", "garbage"], ["-occurredAt", Buffer.from('{"s":"-occurredAt","k":"x","i":"1"}').toString("base64url")], ["occurredAt", first.nextCursor!]]) {
      const err = await search(db, { sort: sort!, cursor: cursor! }).catch((e: unknown) => e);
      expect(isGatewayError(err) && err.code).toBe("validation_failed");
    }
  });

  it("rejects unknown statuses, bad dates and reversed ranges in the contract", () => {
    expect(ZAuditQuery.safeParse({ status: "ok,nope" }).success).toBe(false);
    expect(ZAuditQuery.safeParse({ from: "yesterday" }).success).toBe(false);
    expect(ZAuditQuery.safeParse({ from: minutes(5).toISOString(), to: minutes(1).toISOString() }).success).toBe(false);
    expect(ZAuditQuery.safeParse({ sort: "name" }).success).toBe(false);
    expect(ZAuditQuery.safeParse({ limit: "500" }).success).toBe(false);
  });

  it("estimates the total above the exact-count limit, and says so", async () => {
    await db.$executeRawUnsafe(`
      INSERT INTO audit_events ("occurredAt", action, category, "actorType", status, "toolName", "requestId")
      SELECT timestamp '2026-05-01' + g * interval '1 second', 'tool.called', 'gateway', 'user', 'ok', 'bulk__tool', 'bulk-' || g
      FROM generate_series(1, 10050) g`);
    await db.$executeRawUnsafe("ANALYZE audit_events");
    const page = await search(db, { tool: "bulk__tool", limit: 3 });
    expect(page.items).toHaveLength(3);
    expect(page.totalIsEstimate).toBe(true);
    expect(page.total).toBeGreaterThan(10_000);
    expect(page.total).toBeLessThan(20_000);
    const exact = await search(db, { tool: "bulk__tool", from: "2026-05-01T00:00:00Z", to: "2026-05-01T00:00:11Z" });
    expect(exact).toMatchObject({ total: 10, totalIsEstimate: false });
  });

  it("answers with the estimate when counting takes longer than its time limit", async () => {
    const q = ZAuditQuery.parse({ tool: "bulk__tool", from: "2026-05-01T00:00:00Z", to: "2026-05-01T00:00:11Z" });
    expect(await searchAudit(db, q, { countTimeoutMs: 50 })).toMatchObject({ total: 10, totalIsEstimate: false });
    // A lock held elsewhere makes every statement on the table wait: the count gives up after 50 ms and the
    // search answers with the estimate once the page could be read. The lock is held until the search's
    // EXPLAIN (which it runs only once the count has given up) waits for it too.
    let locked!: () => void;
    const isLocked = new Promise<void>((resolve) => (locked = resolve));
    const holder = db.$transaction(
      async (tx) => {
        await tx.$executeRawUnsafe("LOCK TABLE audit_events IN ACCESS EXCLUSIVE MODE");
        locked();
        await vi.waitFor(
          async () => {
            const [{ n }] = await db.$queryRaw<[{ n: number }]>`
              SELECT count(*)::int AS n FROM pg_stat_activity
              WHERE pid <> pg_backend_pid() AND wait_event_type = 'Lock' AND query LIKE '%EXPLAIN (FORMAT JSON)%'`;
            expect(n).toBe(1);
          },
          { timeout: 9_000, interval: 20 },
        );
      },
      { timeout: 10_000 },
    );
    await isLocked;
    const slow = await searchAudit(db, q, { countTimeoutMs: 50 });
    await holder;
    expect(slow.items).toHaveLength(10);
    expect(slow.totalIsEstimate).toBe(true);
    expect(slow.total).toBeGreaterThanOrEqual(10);
    // The time limit was the count's own transaction's: the pool's connections have none afterwards.
    const settings = await Promise.all(Array.from({ length: 4 }, () => db.$queryRaw<[{ t: string }]>`SELECT current_setting('statement_timeout') AS t`));
    expect(settings.map(([r]) => r.t)).toEqual(["0", "0", "0", "0"]);
  });

  describe("the story of a request", () => {
    let approvalId = "";
    let taskId = "";
    beforeAll(async () => {
      const tool = "orders__refund";
      const task = await db.task.create({ data: { ownerId: bob.id, toolName: tool, arguments: {}, argumentsHash: "h", status: "SUCCEEDED", origin: "approval", requestId: "call-1", startedAt: minutes(102), finishedAt: minutes(103) } });
      const approval = await db.approval.create({
        data: { kind: "CALL", status: "APPROVED", requesterId: bob.id, toolName: tool, arguments: {}, argumentsRedacted: {}, argumentsHash: "h", expiresAt: minutes(2000), decidedAt: minutes(101), taskId: task.id, justification: "customer asked" },
      });
      await db.approvalDecision.create({ data: { approvalId: approval.id, approverId: admin.id, decision: "APPROVE", comment: "ok", createdAt: minutes(101) } });
      approvalId = approval.id;
      taskId = task.id;
      await seed(db, [
        { at: 100, requestId: "call-1", userId: bob.id, toolName: tool, status: "held", decision: "require_approval", approvalId, taskId, arguments: { amount: 10 } },
        { at: 100.5, requestId: "call-1", userId: bob.id, action: "approval.requested", approvalId },
        { at: 101, requestId: "decide-1", userId: admin.id, action: "approval.approved", category: "admin", approvalId },
        { at: 103, requestId: null, action: "task.succeeded", actorType: "system", taskId, toolName: tool, durationMs: 60_000 },
        { at: 104, requestId: "unrelated", userId: bob.id, toolName: tool },
      ]);
    });

    it("gathers the request's events and those of its approval and task, oldest first, with both summaries", async () => {
      const held = (await search(db, { tool: "orders__refund", status: "held" })).items[0]!;
      const detail = await getAuditEventDetail(db, held.id);
      expect(detail.event.id).toBe(held.id);
      expect(detail.story.map((e) => e.action)).toEqual(["tool.called", "approval.requested", "approval.approved", "task.succeeded"]);
      expect(detail.approval).toMatchObject({ id: approvalId, status: "APPROVED", kind: "CALL", requesterEmail: "bob@example.test", justification: "customer asked", decisions: [{ approverEmail: admin.email, decision: "APPROVE", comment: "ok" }] });
      expect(detail.task).toMatchObject({ id: taskId, status: "SUCCEEDED", origin: "approval", finishedAt: minutes(103).toISOString() });
    });

    it("finds the approval from a task event alone", async () => {
      const done = (await search(db, { action: "task.succeeded" })).items[0]!;
      const detail = await getAuditEventDetail(db, done.id);
      expect(detail.approval?.id).toBe(approvalId);
      expect(detail.story).toHaveLength(4);
    });

    it("answers a lone event with itself and 404 for unknown or malformed ids", async () => {
      const lone = (await search(db, { action: "user.created" })).items[0]!;
      expect((await getAuditEventDetail(db, lone.id)).story.map((e) => e.id)).toEqual([lone.id]);
      for (const id of ["999999999", "abc", "1; DROP TABLE x"]) {
        const err = await getAuditEventDetail(db, id).catch((e: unknown) => e);
        expect(isGatewayError(err) && err.code).toBe("not_found");
      }
    });
  });

  describe("export", () => {
    it("streams the filter as CSV with a header row and RFC 4180 quoting, and audits the export", async () => {
      const before = await db.auditEvent.count({ where: { action: "audit.exported" } });
      const stream = await exportAudit(db, userContext(admin), ZAuditExportQuery.parse({ format: "csv", server: "orders", sort: "occurredAt" }));
      const rows = parseCsv(await readAll(stream));
      const [header, ...body] = rows;
      expect(header).toContain("arguments");
      const col = (name: string) => header!.indexOf(name);
      expect(body.map((r) => r[col("requestId")])).toEqual(["r1", "r2", "r6"]);
      expect(JSON.parse(body[2]![col("arguments")]!)).toEqual({ sql: 'SELECT "name", total FROM orders, customers' });
      expect(body[1]![col("reason")]).toBe("not on the whitelist");
      expect(body[0]![col("userEmail")]).toBe("alice@example.test");
      expect(body.every((r) => r.length === header!.length)).toBe(true);
      const audit = await db.auditEvent.findFirst({ where: { action: "audit.exported" }, orderBy: { id: "desc" } });
      expect(await db.auditEvent.count({ where: { action: "audit.exported" } })).toBe(before + 1);
      expect(audit).toMatchObject({ userId: admin.id, details: { format: "csv", filter: { server: "orders" } } });
    });

    it("streams JSON Lines across many pages, every matching event once", async () => {
      const stream = await exportAudit(db, userContext(admin), ZAuditExportQuery.parse({ format: "jsonl", tool: "bulk__tool" }));
      const lines = (await readAll(stream)).trimEnd().split("\n");
      expect(lines).toHaveLength(10_050);
      const events = lines.map((l) => JSON.parse(l) as TAuditEvent);
      expect(new Set(events.map((e) => e.id)).size).toBe(10_050);
      expect(events[0]!.occurredAt > events.at(-1)!.occurredAt).toBe(true);
    });

    it("streams only the header for a filter nothing matches", async () => {
      const stream = await exportAudit(db, userContext(admin), ZAuditExportQuery.parse({ user: "nobody@example.test" }));
      expect(parseCsv(await readAll(stream))).toHaveLength(1);
    });

    it("quotes fields and defuses spreadsheet formulas", () => {
      expect(csvField('a,"b"\nc')).toBe('"a,""b""\nc"');
      expect(csvField("=HYPERLINK(1)")).toBe("'=HYPERLINK(1)");
      expect(csvField(null)).toBe("");
      expect(csvField(42)).toBe("42");
      expect(csvField({ a: "x,y" })).toBe('"{""a"":""x,y""}"');
    });
  });

  describe("append-only and retention", () => {
    it("refuses UPDATE and DELETE outside the retention job, with a clear error", async () => {
      await expect(db.$executeRawUnsafe(`UPDATE audit_events SET status = 'ok' WHERE "requestId" = 'r2'`)).rejects.toThrow(/audit_events is append-only: UPDATE is not allowed/);
      await expect(db.$executeRawUnsafe(`DELETE FROM audit_events WHERE "requestId" = 'r2'`)).rejects.toThrow(/audit_events is append-only: DELETE is not allowed outside the retention job/);
      await expect(db.auditEvent.deleteMany({ where: { requestId: "r2" } })).rejects.toThrow(/append-only/);
      // Even with the flag, an UPDATE stays refused.
      await expect(
        db.$transaction(async (tx) => {
          await tx.$executeRawUnsafe(`SELECT set_config('portcullis.audit_retention', 'on', true)`);
          await tx.$executeRawUnsafe(`UPDATE audit_events SET status = 'ok' WHERE "requestId" = 'r2'`);
        }),
      ).rejects.toThrow(/UPDATE is not allowed/);
      expect(await db.auditEvent.findFirst({ where: { requestId: "r2" } })).toMatchObject({ status: "denied" });
    });

    it("the flag does not outlive the retention job's transaction", async () => {
      await deleteExpiredAudit(db, 10_000, { now: minutes(0) });
      await expect(db.$executeRawUnsafe(`DELETE FROM audit_events WHERE "requestId" = 'r1'`)).rejects.toThrow(/append-only/);
    });

    it("deletes only events older than the retention, in batches", async () => {
      const total = await db.auditEvent.count();
      const old = await db.auditEvent.count({ where: { occurredAt: { lt: new Date("2026-05-31T12:00:00Z") } } });
      expect(old).toBe(10_050);
      // now = 2026-06-02T12:00Z, 2 days: the bulk rows (May) go, June 1st's stay.
      const deleted = await deleteExpiredAudit(db, 2, { now: new Date("2026-06-02T12:00:00Z"), batchSize: 3000 });
      expect(deleted).toBe(10_050);
      expect(await db.auditEvent.count()).toBe(total - 10_050);
      expect(await db.auditEvent.count({ where: { occurredAt: { lt: new Date("2026-05-31T12:00:00Z") } } })).toBe(0);
      expect(await deleteExpiredAudit(db, 0)).toBe(0);
    });
  });
});
