import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { DbTx } from "../db/client";
import { createAuditWriter, OUTCOME_RIDE_MS, prismaSink, type AuditSink } from "./audit-writer";
import type { AuditOwner } from "./audit-owner";
import { auditRow } from "../test/audit-row";
import { buildRedactor, previewRedactor, redactor, setProcessRedactors, type Redactor } from "./redaction";
import { DEFAULT_REDACTION_SETTINGS } from "../../lib/redaction-schemas";

const row = (requestId: string) => auditRow("s__t", { requestId, userId: "u1", serverSlug: "s", arguments: { keys: [] }, resultBytes: 2 });

/** A database whose inserts finish when the test says so; records the request ids of each INSERT. */
function fakeDb(fail?: (batch: number) => Error | undefined) {
  const batches: string[][] = [];
  const release: (() => void)[] = [];
  const db = {
    $executeRawUnsafe: vi.fn((_sql: string, json: string) => {
      const n = batches.push((JSON.parse(json) as { requestId: string }[]).map((r) => r.requestId));
      return new Promise<number>((resolve, reject) =>
        release.push(() => {
          const err = fail?.(n - 1);
          if (err) reject(err);
          else resolve(batches[n - 1]!.length);
        }),
      );
    }),
  } as unknown as DbTx;
  const releaseNext = async () => {
    await vi.waitFor(() => expect(release.length).toBeGreaterThan(0));
    release.shift()!();
  };
  return { db, batches, releaseNext };
}

describe("createAuditWriter – group commit", () => {
  it("writes a lone event at once, and everything that arrives meanwhile as one INSERT after it", async () => {
    const { db, batches, releaseNext } = fakeDb();
    const writer = createAuditWriter(prismaSink(db));
    const settled: string[] = [];
    const first = writer.write(row("a")).then(() => settled.push("a"));
    expect(batches).toEqual([["a"]]); // no timer: the insert started synchronously
    const rest = ["b", "c", "d"].map((id) => writer.write(row(id)).then(() => settled.push(id)));
    await releaseNext();
    await first;
    expect(settled).toEqual(["a"]); // b, c, d wait for their own commit
    expect(batches).toEqual([["a"], ["b", "c", "d"]]);
    await releaseNext();
    await Promise.all(rest);
    expect(settled).toEqual(["a", "b", "c", "d"]);
    await writer.drain();
  });

  it("caps a batch at maxBatch rows", async () => {
    const { db, batches, releaseNext } = fakeDb();
    const writer = createAuditWriter(prismaSink(db), { maxBatch: 2 });
    const all = ["a", "b", "c", "d", "e"].map((id) => writer.write(row(id)));
    for (let i = 0; i < 3; i++) await releaseNext();
    await Promise.all(all);
    expect(batches).toEqual([["a"], ["b", "c"], ["d", "e"]]);
  });

  it("rejects every call of a failed batch, and goes on with the next", async () => {
    const { db, batches, releaseNext } = fakeDb((n) => (n === 1 ? new Error("disk full") : undefined));
    const writer = createAuditWriter(prismaSink(db));
    const a = writer.write(row("a"));
    const b = writer.write(row("b"));
    const c = writer.write(row("c"));
    await releaseNext();
    await releaseNext();
    await expect(a).resolves.toBeUndefined();
    await expect(b).rejects.toThrow("disk full");
    await expect(c).rejects.toThrow("disk full");
    const d = writer.write(row("d"));
    await releaseNext();
    await expect(d).resolves.toBeUndefined();
    expect(batches).toEqual([["a"], ["b", "c"], ["d"]]);
  });

  it("fails a batch whose insert hangs past the timeout instead of holding its calls", async () => {
    const db = { $executeRawUnsafe: () => new Promise(() => undefined) } as unknown as DbTx;
    const writer = createAuditWriter(prismaSink(db), { timeoutMs: 50 });
    await expect(writer.write(row("a"))).rejects.toThrow(/longer than 50 ms/);
  });
});

describe("createAuditWriter – a call's record and its outcome", () => {
  it("commits a call's request record while earlier calls' outcomes are still being written (lanes of their own)", async () => {
    // Outcome statements hang until released; records and the owner sweep answer at once.
    const held: (() => void)[] = [];
    const statements: { status: string; requestId: string }[][] = [];
    const sink: AuditSink = {
      execute: () => Promise.resolve(0), // the sweep of dead owners' records
      insert: (inserted) => {
        const rows = inserted.map((r) => ({ status: String(r.status), requestId: String(r.requestId) }));
        statements.push(rows.map((r) => ({ status: r.status, requestId: r.requestId })));
        if (rows.every((r) => r.status === "started")) return Promise.resolve(rows.length);
        return new Promise<number>((resolve) => held.push(() => resolve(rows.length)));
      },
    };
    const owner: AuditOwner = { id: "owner-1", held: Promise.resolve(true), close: () => Promise.resolve() };
    const writer = createAuditWriter(sink, { owner, sweepIntervalMs: 3_600_000 });
    const first = writer.begin!(row("a"));
    await first.committed;
    const firstOutcome = first.end(row("a"));
    await vi.waitFor(() => expect(held).toHaveLength(1));
    // The first outcome's statement is in flight; the next call's record must not wait for it.
    const second = writer.begin!(row("b"));
    await second.committed;
    expect(statements.map((s) => s.map((r) => `${r.requestId}:${r.status}`))).toEqual([["a:started"], ["a:ok"], ["b:started"]]);
    held.shift()!();
    await firstOutcome;
    const secondOutcome = second.end(row("b"));
    await vi.waitFor(() => expect(held).toHaveLength(1));
    held.shift()!();
    await secondOutcome;
    await writer.close();
  });
});

describe("createAuditWriter – outcomes ride with the next records", () => {
  /** A database that answers every statement at once, and the rows of each statement. */
  const instant = () => {
    const statements: string[][] = [];
    const sink: AuditSink = {
      execute: () => Promise.resolve(0), // the sweep of dead owners' records
      insert: (rows) => {
        statements.push(rows.map((r) => `${String(r.requestId)}:${String(r.status)}`));
        return Promise.resolve(rows.length);
      },
    };
    const owner: AuditOwner = { id: "owner-1", held: Promise.resolve(true), close: () => Promise.resolve() };
    return { statements, writer: createAuditWriter(sink, { owner, sweepIntervalMs: 3_600_000 }) };
  };

  /** Call a's record committed and its outcome handed over; no timer runs unless the test advances it. */
  const firstCallEnded = async () => {
    const { statements, writer } = instant();
    const a = writer.begin!(row("a"));
    await a.committed;
    return { statements, writer, aOutcome: a.end(row("a")) };
  };
  beforeEach(() => void vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] }));
  afterEach(() => void vi.useRealTimers());

  it("sends a call's outcome in the statement of the next call's record, not one of its own", async () => {
    const { statements, writer, aOutcome } = await firstCallEnded();
    const b = writer.begin!(row("b"));
    await b.committed;
    await aOutcome;
    expect(statements).toEqual([["a:started"], ["b:started", "a:ok"]]);
    // No timer has run: drain sends a waiting outcome at once.
    const bOutcome = b.end(row("b"));
    await writer.drain();
    await bOutcome;
    expect(statements).toEqual([["a:started"], ["b:started", "a:ok"], ["b:ok"]]);
    await writer.close();
  });

  it("sends an outcome no record takes on its own after OUTCOME_RIDE_MS", async () => {
    const { statements, writer, aOutcome } = await firstCallEnded();
    await Promise.resolve();
    expect(statements).toEqual([["a:started"]]);
    await vi.advanceTimersByTimeAsync(OUTCOME_RIDE_MS);
    await aOutcome;
    expect(statements).toEqual([["a:started"], ["a:ok"]]);
    await writer.close();
  });
});

describe("createAuditWriter – a call's arguments are redacted once", () => {
  const before = { current: redactor(), preview: previewRedactor() };
  afterEach(() => setProcessRedactors(before.current, before.preview));

  /** A redactor that counts the times it redacts `watched`, wherever in a row it meets it. */
  const counting = (mode: "mask" | "hash", watched: object) => {
    const base = buildRedactor({ ...DEFAULT_REDACTION_SETTINGS, mode }, { key: Buffer.alloc(32, 3) });
    const seen = { count: 0 };
    const r: Redactor = { ...base, value: (v) => ((v === watched && (seen.count += 1)), base.value(v)) };
    return { r, seen };
  };

  it("stores the record's redaction with the outcome, sanitized flag included, and redacts again under a new redactor", async () => {
    const rows: Record<string, unknown>[] = [];
    const sink: AuditSink = {
      execute: () => Promise.resolve(0),
      insert: (inserted) => {
        rows.push(...inserted);
        return Promise.resolve(inserted.length);
      },
    };
    const owner: AuditOwner = { id: "owner-1", held: Promise.resolve(true), close: () => Promise.resolve() };
    const writer = createAuditWriter(sink, { owner, sweepIntervalMs: 3_600_000 });
    // Plain JSON (no NUL), so storableRow passes the object itself on and the count sees it.
    const args = { to: "a.person@example.com", note: "hi" };
    const first = counting("mask", args);
    setProcessRedactors(first.r, first.r);
    const withArgs = (status: string) => ({ ...row("w"), status, arguments: args });
    const watched = writer.begin!({ ...withArgs("ok"), requestId: "w" });
    await watched.committed;
    await watched.end({ ...withArgs("error"), requestId: "w", errorCode: "upstream_error" });
    expect(first.seen.count).toBe(1);
    const stored = rows.filter((r) => r.requestId === "w");
    expect(stored.map((r) => r.status)).toEqual(["started", "error"]);
    for (const r of stored) expect(r.arguments).toEqual({ to: "[email]", note: "hi" });

    // Saved settings (a new process redactor): the same object is redacted again, under the new one.
    const second = counting("hash", args);
    setProcessRedactors(second.r, second.r);
    await writer.write({ ...withArgs("ok"), requestId: "w2" });
    expect(second.seen.count).toBe(1);
    expect(rows.find((r) => r.requestId === "w2")?.arguments).toMatchObject({ to: expect.stringMatching(/^\[email:[0-9a-f]{10}\]$/) as unknown });

    // Arguments that had to be made storable: the outcome says so too.
    const dirty = { note: "nul\u0000here" };
    const d = writer.begin!({ ...row("d"), requestId: "d", arguments: dirty });
    await d.committed;
    await d.end({ ...row("d"), requestId: "d", arguments: dirty, status: "ok" });
    const dRows = rows.filter((r) => r.requestId === "d");
    expect(dRows).toHaveLength(2);
    for (const r of dRows) {
      expect(r.arguments).toEqual({ note: "nul\u2400here" });
      expect((r.details as { sanitized: string[] }).sanitized).toContain("arguments");
    }
    await writer.close();
  });
});
