// Wrong-password limiting, shared by every process through PostgreSQL (rate-limiter-flexible).
import { HOT_PATH_POOLS } from "../db/connection-budget";
import pg from "pg";
import { RateLimiterPostgres, RateLimiterRes } from "rate-limiter-flexible";

export type LoginLimiter = {
  /**
   * Takes one try atomically (shared by every process): 0 when this try may go ahead, else the seconds to
   * wait. Checking and counting in one step means parallel attempts cannot slip past the limit.
   */
  take(key: string): Promise<number>;
  /** Read-only: seconds until `key` may try again, or 0. */
  blockedFor(key: string): Promise<number>;
  reset(key: string): Promise<void>;
  close(): Promise<void>;
};

export function createLoginLimiter(databaseUrl: string, opts: { maxFailures: number; windowSeconds: number }): LoginLimiter {
  const pool = new pg.Pool({ connectionString: databaseUrl, max: HOT_PATH_POOLS.loginLimiter });
  // An idle connection the server ends (PostgreSQL restarting or stopping) must not crash the process.
  pool.on("error", () => undefined);
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
    async take(key) {
      try {
        await limiter.consume(key);
        return 0;
      } catch (err) {
        if (err instanceof RateLimiterRes) return Math.max(1, Math.ceil(err.msBeforeNext / 1000));
        throw err;
      }
    },
    async blockedFor(key) {
      const res = await limiter.get(key);
      return res && res.consumedPoints >= opts.maxFailures ? Math.max(1, Math.ceil(res.msBeforeNext / 1000)) : 0;
    },
    async reset(key) {
      await limiter.delete(key);
    },
    close: () => pool.end(),
  };
}
