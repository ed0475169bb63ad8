import { afterAll, afterEach, beforeEach, describe, expect, it } from "vitest";
import { systemContext } from "../context";
import { createTestDb, testDatabaseUrl, truncateAll } from "../test/test-db";
import { createCallLimiter, maxLease } from "./rate-limit";
import { errorCodeOf } from "./tool-error";
import type { CallToolHandler, ResolvedTool, ToolCall } from "./types";

const tool = { gatewayName: "orders__query_orders" } as ResolvedTool;
const call = (sessionKey?: string, t: ResolvedTool = tool): ToolCall => ({ tool: t, arguments: {}, endpoint: "mcp", signal: new AbortController().signal, sessionKey });

describe("rate limits", () => {
  const db = createTestDb();
  const limiters: ReturnType<typeof createCallLimiter>[] = [];
  beforeEach(() => truncateAll(db));
  // A limiter leases ahead in the background: close it (which waits for that) before the next test truncates.
  afterEach(async () => {
    await Promise.all(limiters.splice(0).map((l) => l.close()));
  });
  afterAll(() => db.$disconnect());

  function handler(perSession: number, perTool: number) {
    const limiter = createCallLimiter(testDatabaseUrl(), { perSessionPerMinute: perSession, perToolPerMinute: perTool });
    limiters.push(limiter);
    let upstreamCalls = 0;
    const h: CallToolHandler = limiter.middleware(async () => {
      upstreamCalls++;
      return { content: [{ type: "text", text: "ok" }] };
    });
    return { h, calls: () => upstreamCalls };
  }

  it("answers rate_limited with a retry-after hint once a session used its calls, and the upstream never sees the extra call", async () => {
    const { h, calls } = handler(3, 100);
    for (let i = 0; i < 3; i++) expect((await h(call("s1"), systemContext("t"), {})).isError).toBeUndefined();
    const notes = {};
    const refused = await h(call("s1"), systemContext("t"), notes);
    expect(refused.isError).toBe(true);
    expect(errorCodeOf(refused)).toBe("rate_limited");
    expect((refused._meta?.["portcullis/error"] as { retryAfterSeconds: number }).retryAfterSeconds).toBeGreaterThan(0);
    expect(notes).toMatchObject({ decision: "deny", errorCode: "rate_limited" });
    expect(calls()).toBe(3);
    // Another session is not affected.
    expect((await h(call("s2"), systemContext("t"), {})).isError).toBeUndefined();
  });

  it("limits a tool across sessions and shares the count between two gateway processes", async () => {
    const a = handler(100, 4);
    const b = handler(100, 4);
    // Each process leases ahead, so which one holds the last unit depends on timing; the total does not.
    const codes: (string | undefined)[] = [];
    for (let i = 0; i < 8; i++) codes.push(errorCodeOf(await (i % 2 ? b : a).h(call(`x${i}`), systemContext("t"), {})));
    expect(a.calls() + b.calls()).toBe(4);
    expect(codes.filter((c) => c === "rate_limited")).toHaveLength(4);
    // Once the tool's budget is spent, neither process lets another call through.
    expect(errorCodeOf(await a.h(call("y1"), systemContext("t"), {}))).toBe("rate_limited");
    expect(errorCodeOf(await b.h(call("y2"), systemContext("t"), {}))).toBe("rate_limited");
    expect(a.calls() + b.calls()).toBe(4);
  });

  it("a tool's own limit (rateLimitPerMinute) replaces the gateway default; null keeps the default", async () => {
    const { h, calls } = handler(100, 5);
    const strict = { gatewayName: "orders__export", rateLimitPerMinute: 2 } as ResolvedTool;
    const lax = { gatewayName: "orders__list", rateLimitPerMinute: 50 } as ResolvedTool;
    const unset = { gatewayName: "orders__get", rateLimitPerMinute: null } as ResolvedTool;
    const outcomes = async (t: ResolvedTool, n: number) => {
      const out: (string | undefined)[] = [];
      for (let i = 0; i < n; i++) out.push(errorCodeOf(await h(call(`s-${t.gatewayName}`, t), systemContext("t"), {})));
      return out.filter((c) => c === "rate_limited").length;
    };
    expect(await outcomes(strict, 4)).toBe(2);
    expect(await outcomes(lax, 8)).toBe(0);
    expect(await outcomes(unset, 7)).toBe(2);
    expect(calls()).toBe(2 + 8 + 5);
  });

  it("a call refused for its tool does not use up its session's budget", async () => {
    const { h } = handler(3, 100);
    const one = { gatewayName: "orders__export", rateLimitPerMinute: 1 } as ResolvedTool;
    const code = async (t: ResolvedTool) => errorCodeOf(await h(call("s1", t), systemContext("t"), {}));
    expect(await code(one)).toBeUndefined();
    for (let i = 0; i < 3; i++) expect(await code(one)).toBe("rate_limited");
    expect(await code(tool)).toBeUndefined();
    expect(await code(tool)).toBeUndefined();
    expect(await code(tool)).toBe("rate_limited"); // the session's third call: its limit
  });

  it("under concurrent load on two processes the tool limit is never exceeded, and at most a lease per process goes unused", async () => {
    const limit = 300;
    const a = handler(1e6, limit);
    const b = handler(1e6, limit);
    // 16 sessions on each process, 40 calls each: 1280 calls for a budget of 300.
    await Promise.all(
      [a, b].flatMap((p, pi) =>
        Array.from({ length: 16 }, async (_, w) => {
          for (let i = 0; i < 40; i++) await p.h(call(`p${pi}-w${w}`), systemContext("t"), {});
        }),
      ),
    );
    const admitted = a.calls() + b.calls();
    expect(admitted).toBeLessThanOrEqual(limit);
    expect(admitted).toBeGreaterThanOrEqual(limit - 2 * maxLease(limit));
    // Most calls were admitted without a statement: the row counts leases, not calls.
    const [row] = await db.$queryRaw<{ points: number }[]>`SELECT points FROM rate_limits WHERE key = ${`tool:${tool.gatewayName}`}`;
    expect(row!.points).toBeGreaterThanOrEqual(limit);
  });
});

