// Wrong-password limiting, shared by every process through PostgreSQL (rate-limiter-flexible).
import pg from "pg";
import { RateLimiterPostgres, RateLimiterRes } from "rate-limiter-flexible";

export type LoginLimiter = {
  /** Seconds to wait before another try, or 0 when allowed. */
  blockedFor(key: string): Promise<number>;
  recordFailure(key: string): Promise<void>;
  reset(key: string): Promise<void>;
  close(): Promise<void>;
};

export function createLoginLimiter(databaseUrl: string, opts: { maxFailures: number; windowSeconds: number }): LoginLimiter {
  const pool = new pg.Pool({ connectionString: databaseUrl, max: 2 });
  const limiter = new RateLimiterPostgres({
    storeClient: pool,
    storeType: "pool",
    tableName: "rate_limits",
    tableCreated: true,
    keyPrefix: "login",
    points: opts.maxFailures,
    duration: opts.windowSeconds,
    clearExpiredByTimeout: false,
  });
  return {
    async blockedFor(key) {
      const res = await limiter.get(key);
      return res && res.consumedPoints >= opts.maxFailures ? Math.max(1, Math.ceil(res.msBeforeNext / 1000)) : 0;
    },
    async recordFailure(key) {
      await limiter.consume(key).catch((err: unknown) => {
        if (!(err instanceof RateLimiterRes)) throw err;
      });
    },
    async reset(key) {
      await limiter.delete(key);
    },
    close: () => pool.end(),
  };
}
