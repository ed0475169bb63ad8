// The hot path's claim rows (call-claims.ts): claims sent together in one string still behave as the task
// engine's locked claim did, each on its own: of concurrent identical calls exactly one claims, distinct calls
// all claim, a claim the database refuses fails only its own call, and drops sent together each say whether
// their claim was still a claim.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createCallClaims, type CallClaims, type ClaimRow } from "./call-claims";
import { createTestDb, testDatabaseUrl, truncateAll } from "../test/test-db";

describe("call claims", () => {
  const db = createTestDb();
  let claims: CallClaims;
  let base: ClaimRow;

  beforeAll(async () => {
    await truncateAll(db);
    const user = await db.user.create({ data: { email: "claims@example.test", passwordHash: "x" } });
    const session = await db.agentSession.create({ data: { userId: user.id, agentId: "claims", tokenHash: "claims-token", prefix: "pcs_x", expiresAt: new Date(Date.now() + 3_600_000) } });
    base = { ownerId: user.id, agentSessionId: session.id, toolId: null, toolName: "s__echo", arguments: {}, argumentsHash: "", retryable: false, maxAttempts: 1, requestId: "r", endpoint: "mcp", runnerId: "runner-test" };
    claims = createCallClaims(testDatabaseUrl());
  });

  afterAll(async () => {
    await claims.close();
    await db.$disconnect();
  });

  const row = (n: number, extra: Partial<ClaimRow> = {}): ClaimRow => ({ ...base, arguments: { n }, argumentsHash: `hash-${n}`, requestId: `r-${n}`, ...extra });

  it("of 40 concurrent calls (20 distinct, each twice) each distinct call claims once, with its arguments stored", async () => {
    const out = await Promise.all(Array.from({ length: 40 }, (_, i) => claims.claim(row(i % 20, { arguments: { n: i % 20, text: "it's \\ \"quoted\"" } }), 30_000)));
    const won = out.filter((t) => t !== null);
    expect(won).toHaveLength(20);
    expect(new Set(won.map((t) => t.argumentsHash)).size).toBe(20);
    const stored = await db.task.findMany({ where: { origin: "claim", agentSessionId: base.agentSessionId } });
    expect(stored).toHaveLength(20);
    expect(stored.every((t) => (t.arguments as { text: string }).text === "it's \\ \"quoted\"" && t.status === "RUNNING" && t.runnerId === "runner-test")).toBe(true);
    const dropped = await Promise.all(won.map((t) => claims.drop(t.id)));
    expect(dropped.every(Boolean)).toBe(true);
    expect(await db.task.count({ where: { origin: "claim" } })).toBe(0);
  });

  it("a claim the database refuses (unknown owner) fails alone; the claims sent with it are made", async () => {
    const out = await Promise.allSettled([claims.claim(row(100), 30_000), claims.claim(row(101, { ownerId: "no-such-user" }), 30_000), claims.claim(row(102), 30_000), claims.claim(row(103), 30_000)]);
    expect(out.map((o) => o.status)).toEqual(["fulfilled", "rejected", "fulfilled", "fulfilled"]);
    expect((out[1] as PromiseRejectedResult).reason).toMatchObject({ code: "23503" });
    expect(await db.task.count({ where: { origin: "claim", argumentsHash: { in: ["hash-100", "hash-102", "hash-103"] } } })).toBe(3);
    expect(await db.task.count({ where: { argumentsHash: "hash-101" } })).toBe(0);
  });

  it("a drop of a claim that became a task meanwhile says so and leaves the task", async () => {
    const t = await claims.claim(row(200), 30_000);
    expect(t).not.toBeNull();
    await db.task.update({ where: { id: t!.id }, data: { origin: "threshold" } });
    const other = await claims.claim(row(201), 30_000);
    expect(await Promise.all([claims.drop(t!.id), claims.drop(other!.id)])).toEqual([false, true]);
    expect(await db.task.count({ where: { id: t!.id } })).toBe(1);
  });
});
