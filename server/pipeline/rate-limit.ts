// Rate limits per agent session and per tool, shared by every gateway process (a global cap per minute).
// The count lives in PostgreSQL (`rate_limits`, one row per key and fixed 60 s window), but a call does not
// touch it: each process leases a block of a key's budget and spends it locally, fetching the next block in
// the background when half is gone. A lease never takes more than is left, so the limit is never exceeded;
// the price is that a block leased by one process and unused by the end of the window is lost to the others
// (at most LEASE_SHARE of the limit per process and key). Over the limit, the call is answered with a
// `rate_limited` tool error carrying a retry-after hint.
import pg from "pg";
import { HOT_PATH_POOLS } from "../db/connection-budget";
import type { Logger } from "../logger";
import { toolError } from "./tool-error";
import type { CallNotes, Middleware } from "./types";

export type RateLimits = { perSessionPerMinute: number; perToolPerMinute: number };

/** A tool's calls per minute: its own setting, else its server's default, else the gateway's (one rule for the limiter and the tool page). */
export function toolRateLimit(tool: number | null | undefined, server: number | null | undefined, limits: RateLimits): { perMinute: number; source: "tool" | "server" | "gateway" } {
  if (tool != null) return { perMinute: tool, source: "tool" };
  if (server != null) return { perMinute: server, source: "server" };
  return { perMinute: limits.perToolPerMinute, source: "gateway" };
}
/** What a request is counted against besides its session: a tool, a prompt, a server's resources; perMinute null = the gateway default. */
export type RateTarget = { key: string; perMinute: number | null | undefined; what: string };
export type RateRefusal = { retryAfterSeconds: number; message: string };
export type CallLimiter = {
  middleware: Middleware;
  /**
   * Takes one unit of the session's and the target's budget, both or neither: undefined when taken, else the
   * refusal, noted (decision deny, code rate_limited) for the audit step. The tool step and the operation step
   * (limit-operation.ts) both count through it.
   */
  admit(target: RateTarget, sessionKey: string | undefined, notes: CallNotes): Promise<RateRefusal | undefined>;
  /** Takes one unit of `key`'s budget: undefined when taken, else ms until the key's window ends. */
  take(key: string, limit: number): Promise<number | undefined>;
  close(): Promise<void>;
};

const WINDOW_MS = 60_000;
/** A lease is at most this share of a key's limit (and at most MAX_LEASE calls). */
export const LEASE_SHARE = 0.05;
const MAX_LEASE = 1000;
const MAX_POINTS = 2_000_000_000; // the column is an INTEGER
const IDLE_BUDGETS = 10_000;

export function maxLease(limit: number): number {
  return Math.max(1, Math.min(MAX_LEASE, Math.floor(limit * LEASE_SHARE)));
}

// One statement: adds the leased points to the key's row for the current window (starting a new window when
// the stored one has passed) and returns the row's total, its window end and PostgreSQL's clock, all in ms.
const LEASE_SQL = `
INSERT INTO rate_limits AS r (key, points, expire)
VALUES ($1, $2, (extract(epoch FROM now()) * 1000)::bigint + ${WINDOW_MS})
ON CONFLICT (key) DO UPDATE SET
  points = CASE WHEN r.expire > (extract(epoch FROM now()) * 1000)::bigint
                THEN LEAST(r.points + EXCLUDED.points, ${MAX_POINTS}) ELSE EXCLUDED.points END,
  expire = CASE WHEN r.expire > (extract(epoch FROM now()) * 1000)::bigint THEN r.expire ELSE EXCLUDED.expire END
RETURNING r.points, r.expire::text AS expire, (extract(epoch FROM now()) * 1000)::bigint::text AS now`;

/** What this process holds of one key's budget in the current window. */
type Budget = {
  key: string;
  /** The window, as PostgreSQL names it (its end in PostgreSQL's clock), and its end in this process's clock. */
  window: string;
  windowEnd: number;
  remaining: number;
  /** Leased in this window so far: the next lease asks for as much again (up to maxLease), so busy keys grow. */
  leased: number;
  lastLease: number;
  /** No more budget in this window: the row is at the limit (the limit below, which an admin may change). */
  spent: boolean;
  limit: number;
  refill: Promise<void> | undefined;
};

type Taken = { budget: Budget; window: string } | { retryAfterMs: number };

/** `transactionPooler`: databaseUrl is PgBouncer in transaction mode, which takes no startup options. */
export function createCallLimiter(databaseUrl: string, limits: RateLimits, logger?: Logger, opts: { transactionPooler?: boolean } = {}): CallLimiter {
  // A lost increment after a PostgreSQL crash only forgets a few calls; waiting for the WAL flush is not worth it.
  const pool = new pg.Pool({
    connectionString: databaseUrl,
    max: HOT_PATH_POOLS.rateLimits,
    connectionTimeoutMillis: 5_000,
    query_timeout: 5_000,
    // Behind a transaction pooler a startup option would be refused (and could not follow the transaction to
    // its server connection): commits there wait for the WAL flush.
    ...(!opts.transactionPooler && { options: "-c synchronous_commit=off" }),
  });
  let closing = false;
  // An idle connection ended by PostgreSQL's own shutdown after close() (the gateway stopping) is expected.
  pool.on("error", (err) => (closing ? logger?.debug({ err }, "rate-limit connection ended while closing") : logger?.warn({ err }, "rate-limit connection failed")));
  const budgets = new Map<string, Budget>();

  function budgetFor(key: string): Budget {
    let b = budgets.get(key);
    if (!b) {
      if (budgets.size >= IDLE_BUDGETS) sweep();
      b = { key, window: "", windowEnd: 0, remaining: 0, leased: 0, lastLease: 0, spent: false, limit: 0, refill: undefined };
      budgets.set(key, b);
    }
    return b;
  }

  function sweep() {
    const now = Date.now();
    for (const [k, b] of budgets) if (b.windowEnd <= now && !b.refill) budgets.delete(k);
  }

  function lease(b: Budget, limit: number): Promise<void> {
    const want = Math.max(1, Math.min(maxLease(limit), b.leased));
    const p = pool
      .query<{ points: number; expire: string; now: string }>(LEASE_SQL, [b.key, want])
      .then(({ rows: [row] }) => {
        const before = row!.points - want;
        const got = Math.max(0, Math.min(want, limit - before));
        if (row!.expire !== b.window) {
          // A new window: what was left of the old one is not counted in it, so it cannot be spent there.
          b.window = row!.expire;
          b.remaining = 0;
          b.leased = 0;
          b.spent = false;
        }
        b.windowEnd = Date.now() + (Number(row!.expire) - Number(row!.now));
        b.remaining += got;
        b.leased += got;
        b.lastLease = got;
        if (got < want) b.spent = true;
      })
      .finally(() => {
        if (b.refill === p) b.refill = undefined;
      });
    b.refill = p;
    return p;
  }

  async function take(key: string, limit: number): Promise<Taken> {
    const b = budgetFor(key);
    if (b.limit !== limit) {
      // A raised limit may leave budget in a window this process thought spent; a lowered one is seen by the next lease.
      b.spent = false;
      b.limit = limit;
    }
    for (;;) {
      const now = Date.now();
      if (now >= b.windowEnd && b.window !== "") {
        b.window = "";
        b.remaining = 0;
        b.leased = 0;
        b.spent = false;
      }
      if (b.remaining > 0) {
        b.remaining--;
        if (!b.spent && !b.refill && b.remaining <= b.lastLease / 2) {
          lease(b, limit).catch((err: unknown) => logger?.warn({ err, key }, "could not lease a rate-limit block ahead"));
        }
        return { budget: b, window: b.window };
      }
      if (b.spent) return { retryAfterMs: b.windowEnd - now };
      await (b.refill ?? lease(b, limit));
    }
  }

  async function admit(target: RateTarget, sessionKey: string | undefined, notes: CallNotes): Promise<RateRefusal | undefined> {
    const checks: [string, number, string][] = [[target.key, toolRateLimit(target.perMinute, null, limits).perMinute, target.what]];
    if (sessionKey) checks.unshift([`session:${sessionKey}`, limits.perSessionPerMinute, "this session"]);
    const taken: Extract<Taken, { budget: Budget }>[] = [];
    for (const [key, limit, what] of checks) {
      const t = await take(key, limit);
      if ("budget" in t) {
        taken.push(t);
        continue;
      }
      // A refused call does not use up the other key's budget.
      for (const { budget, window } of taken) if (budget.window === window) budget.remaining++;
      const retryAfterSeconds = Math.max(1, Math.ceil(t.retryAfterMs / 1000));
      notes.decision = "deny";
      notes.errorCode = "rate_limited";
      notes.reason = `rate limit of ${what}`;
      return { retryAfterSeconds, message: `Too many calls for ${what}. Try again in ${retryAfterSeconds} s.` };
    }
    return undefined;
  }

  const middleware: Middleware = (next) => async (call, ctx, notes) => {
    const refused = await admit({ key: `tool:${call.tool.gatewayName}`, perMinute: call.tool.rateLimitPerMinute, what: `the tool ${call.tool.gatewayName}` }, call.sessionKey, notes);
    if (refused) return toolError("rate_limited", refused.message, { retryAfterSeconds: refused.retryAfterSeconds });
    return next(call, ctx, notes);
  };

  return {
    middleware,
    admit,
    async take(key, limit) {
      const t = await take(key, limit);
      return "budget" in t ? undefined : t.retryAfterMs;
    },
    async close() {
      closing = true;
      await Promise.allSettled([...budgets.values()].flatMap((b) => (b.refill ? [b.refill] : [])));
      await pool.end();
    },
  };
}
