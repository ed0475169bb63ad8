// The hot path's claim rows (call-claims.ts, table call_claims): claims sent together in one statement still
// behave each on its own: of concurrent identical calls exactly one claims, distinct calls all claim, a claim the
// database refuses fails only its own call, drops sent together each say whether their claim was still unjoined,
// and an identical call in tasks (running, or succeeded within the window) keeps a claim from being made. A claim or
// drop alone goes as a statement of one row (D171), with the same outcomes.
import pg from "pg";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
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

  afterEach(() => vi.restoreAllMocks());

  /** The names of the claims' statements sent since it was called (the spy calls through). */
  const statementNames = () => {
    const spy = vi.spyOn(pg.Pool.prototype, "query");
    return () => spy.mock.calls.map((c) => (c[0] as { name?: string }).name).filter((n): n is string => n?.startsWith("portcullis_") === true);
  };

  const row = (n: number, extra: Partial<ClaimRow> = {}): ClaimRow => ({ ...base, arguments: { n }, argumentsHash: `hash-${n}`, requestId: `r-${n}`, ...extra });

  const claimsOf = (hashes?: string[]) =>
    db.callClaim.findMany({ where: { agentSessionId: base.agentSessionId, ...(hashes && { argumentsHash: { in: hashes } }) } });

  it("of 40 concurrent calls (20 distinct, each twice) each distinct call claims once, with its arguments stored", async () => {
    const out = await Promise.all(Array.from({ length: 40 }, (_, i) => claims.claim(row(i % 20, { arguments: { n: i % 20, text: "it's \\ \"quoted\"" } }), 30_000)));
    const won = out.filter((t) => t !== null);
    expect(won).toHaveLength(20);
    expect(new Set(won.map((t) => t.argumentsHash)).size).toBe(20);
    const stored = await claimsOf();
    expect(stored).toHaveLength(20);
    expect(stored.every((c) => (JSON.parse(c.arguments) as { text: string }).text === "it's \\ \"quoted\"" && c.taskId === null && c.runnerId === "runner-test")).toBe(true);
    // A claim is no task: nothing of it is in tasks.
    expect(await db.task.count()).toBe(0);
    const dropped = await Promise.all(won.map((t) => claims.drop(t)));
    expect(dropped.every(Boolean)).toBe(true);
    expect(await claimsOf()).toHaveLength(0);
  });

  it("claims and drops one at a time go as statements of one row, with the outcomes of the many-row ones", async () => {
    const names = statementNames();
    const first = await claims.claim(row(400), 30_000);
    expect(first).not.toBeNull();
    // The same call again while the first is claimed: nothing is claimed.
    expect(await claims.claim(row(400), 30_000)).toBeNull();
    // An identical call in tasks within the window keeps it from being claimed; a failed one does not.
    await db.task.create({ data: { ownerId: base.ownerId, agentSessionId: base.agentSessionId, toolName: base.toolName, arguments: { n: 401 }, argumentsHash: "hash-401", status: "SUCCEEDED", origin: "threshold" } });
    await db.task.create({ data: { ownerId: base.ownerId, agentSessionId: base.agentSessionId, toolName: base.toolName, arguments: { n: 402 }, argumentsHash: "hash-402", status: "FAILED", origin: "threshold" } });
    expect(await claims.claim(row(401), 30_000)).toBeNull();
    expect(await claims.claim(row(401), 0)).not.toBeNull();
    const failedBefore = await claims.claim(row(402), 30_000);
    expect(failedBefore).not.toBeNull();
    // A claim the database refuses fails with the database's code.
    await expect(claims.claim(row(403, { requestId: "r\u0000" }), 30_000)).rejects.toMatchObject({ code: "22021" });
    const stored = await claimsOf(["hash-400"]);
    expect(stored).toHaveLength(1);
    expect(stored[0]).toMatchObject({ id: first!.id, runnerId: "runner-test", taskId: null, requestId: "r-400" });
    expect(JSON.parse(stored[0]!.arguments)).toEqual({ n: 400 });
    // A drop alone: true for an unjoined claim, false for one a twin joined.
    await db.callClaim.updateMany({ where: { id: failedBefore!.id }, data: { taskId: failedBefore!.id } });
    expect(await claims.drop(first!)).toBe(true);
    expect(await claims.drop(failedBefore!)).toBe(false);
    expect(await claimsOf(["hash-400"])).toHaveLength(0);
    expect(await claimsOf(["hash-402"])).toHaveLength(1);
    const alone = names().length;
    expect(new Set(names())).toEqual(new Set(["portcullis_claim_call", "portcullis_drop_claim"]));

    // Claims arriving together still go as many-row statements after a first one alone.
    const together = await Promise.all([410, 411, 412, 413].map((n) => claims.claim(row(n), 30_000)));
    expect(together.every((t) => t !== null)).toBe(true);
    expect(names().slice(alone)).toEqual(["portcullis_claim_call", "portcullis_claim_calls"]);
  });

  it("a claim the database refuses (a NUL in its text) fails alone; the claims sent with it are made", async () => {
    const out = await Promise.allSettled([claims.claim(row(100), 30_000), claims.claim(row(101, { requestId: "r\u0000" }), 30_000), claims.claim(row(102), 30_000), claims.claim(row(103), 30_000)]);
    expect(out.map((o) => o.status)).toEqual(["fulfilled", "rejected", "fulfilled", "fulfilled"]);
    expect((out[1] as PromiseRejectedResult).reason).toMatchObject({ code: "22021" });
    expect(await claimsOf(["hash-100", "hash-102", "hash-103"])).toHaveLength(3);
    expect(await claimsOf(["hash-101"])).toHaveLength(0);
  });

  it("a drop of a claim a twin joined meanwhile says so and leaves it; release deletes it", async () => {
    const t = await claims.claim(row(200), 30_000);
    expect(t).not.toBeNull();
    await db.callClaim.updateMany({ where: { id: t!.id }, data: { taskId: t!.id } });
    const other = await claims.claim(row(201), 30_000);
    expect(await Promise.all([claims.drop(t!), claims.drop(other!)])).toEqual([false, true]);
    expect(await claimsOf(["hash-200"])).toHaveLength(1);
    await claims.release(t!);
    expect(await claimsOf(["hash-200"])).toHaveLength(0);
  });

  it("an identical call still in tasks (running, or finished within the window) is not claimed again; a failed one is", async () => {
    const task = (n: number, status: "RUNNING" | "SUCCEEDED" | "FAILED") =>
      db.task.create({ data: { ownerId: base.ownerId, agentSessionId: base.agentSessionId, toolName: base.toolName, arguments: { n }, argumentsHash: `hash-${n}`, status, origin: "threshold" } });
    await Promise.all([task(300, "RUNNING"), task(301, "SUCCEEDED"), task(302, "FAILED")]);
    const out = await Promise.all([300, 301, 302].map((n) => claims.claim(row(n), 30_000)));
    expect(out.map((t) => t !== null)).toEqual([false, false, true]);
    // Outside the window a finished call is no reason not to run.
    expect(await claims.claim(row(301), 0)).not.toBeNull();
  });
});
