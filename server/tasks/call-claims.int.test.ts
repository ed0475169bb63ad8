// The hot path's claim rows (call-claims.ts, table call_claims): claims sent together in one statement still
// behave each on its own: of concurrent identical calls exactly one claims, distinct calls all claim, a claim the
// database refuses fails only its own call, drops sent together each say whether their claim was still unjoined,
// and an identical call in tasks (running, or succeeded within the window) keeps a claim from being made.
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
