// Rate limits per agent session and per tool, counted in PostgreSQL so every gateway process shares them.
// Over the limit, the call is answered with a `rate_limited` tool error carrying a retry-after hint.
import pg from "pg";
import { RateLimiterPostgres, RateLimiterRes } from "rate-limiter-flexible";
import { toolError } from "./tool-error";
import type { Middleware } from "./types";

export type RateLimits = { perSessionPerMinute: number; perToolPerMinute: number };

export type CallLimiter = { middleware: Middleware; close(): Promise<void> };

export function createCallLimiter(databaseUrl: string, limits: RateLimits): CallLimiter {
  const pool = new pg.Pool({ connectionString: databaseUrl, max: 4 });
  const make = (keyPrefix: string, points: number) =>
    new RateLimiterPostgres({ storeClient: pool, storeType: "pool", tableName: "rate_limits", tableCreated: true, keyPrefix, points, duration: 60, clearExpiredByTimeout: false });
  const perSession = make("session", limits.perSessionPerMinute);
  const perTool = make("tool", limits.perToolPerMinute);

  const middleware: Middleware = (next) => async (call, ctx, notes) => {
    const checks: [RateLimiterPostgres, string, string][] = [[perTool, call.tool.gatewayName, `the tool ${call.tool.gatewayName}`]];
    if (call.sessionKey) checks.unshift([perSession, call.sessionKey, "this session"]);
    for (const [limiter, key, what] of checks) {
      try {
        await limiter.consume(key);
      } catch (err) {
        if (!(err instanceof RateLimiterRes)) throw err;
        const retryAfterSeconds = Math.max(1, Math.ceil(err.msBeforeNext / 1000));
        notes.decision = "deny";
        notes.errorCode = "rate_limited";
        notes.reason = `rate limit of ${what}`;
        return toolError("rate_limited", `Too many calls for ${what}. Try again in ${retryAfterSeconds} s.`, { retryAfterSeconds });
      }
    }
    return next(call, ctx, notes);
  };
  return { middleware, close: () => pool.end() };
}
