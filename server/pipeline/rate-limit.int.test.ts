import { afterAll, beforeEach, describe, expect, it } from "vitest";
import { systemContext } from "../context";
import { createTestDb, testDatabaseUrl, truncateAll } from "../test/test-db";
import { createCallLimiter } from "./rate-limit";
import { errorCodeOf } from "./tool-error";
import type { CallToolHandler, ResolvedTool, ToolCall } from "./types";

const tool = { gatewayName: "orders__query_orders" } as ResolvedTool;
const call = (sessionKey?: string): ToolCall => ({ tool, arguments: {}, endpoint: "mcp", signal: new AbortController().signal, sessionKey });

describe("rate limits", () => {
  const db = createTestDb();
  const limiters: ReturnType<typeof createCallLimiter>[] = [];
  beforeEach(() => truncateAll(db));
  afterAll(async () => {
    await Promise.all(limiters.map((l) => l.close()));
    await db.$disconnect();
  });

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
    await a.h(call("x1"), systemContext("t"), {});
    await b.h(call("x2"), systemContext("t"), {});
    await a.h(call("x3"), systemContext("t"), {});
    await b.h(call("x4"), systemContext("t"), {});
    expect(errorCodeOf(await a.h(call("x5"), systemContext("t"), {}))).toBe("rate_limited");
    expect(a.calls() + b.calls()).toBe(4);
  });
});
