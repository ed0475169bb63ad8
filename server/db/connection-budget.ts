// How many PostgreSQL connections one gateway process opens at most, pool by pool, so that replicas × this ≤
// max_connections (or the pooler's pool) can be planned (docs/operations.md "Database budget"). The pools are
// sized here and nowhere else. Connections that need a session of their own (LISTEN, session advisory locks)
// go to DATABASE_DIRECT_URL when the query pools go through a transaction pooler (PgBouncer pool_mode=transaction).

/** The fixed pools of the hot path, each small and its own so one kind of work cannot starve another. */
export const HOT_PATH_POOLS = {
  /** Claims of ordinary calls (tasks/call-claims.ts): one batch of claims and one of drops in flight, the rest for releases and a refused batch's claims tried alone. */
  callClaims: 4,
  /** Rate-limit budgets (pipeline/rate-limit.ts). */
  rateLimits: 4,
  /** Group-committed audit events (audit/audit-sink.ts). */
  audit: 2,
  /** Change-bus publishes and fences (events/change-bus.ts). */
  busPublish: 2,
  /** Console sign-in failure counters (auth/login-limiter.ts). */
  loginLimiter: 2,
} as const;

/** Connections held for the process's life that need a session: on the direct URL. */
export const SESSION_CONNECTIONS = {
  /** The change bus's LISTEN connection. */
  busListener: 1,
  /** The task runner's liveness lock (tasks/task-engine.ts). */
  taskLiveness: 1,
  /** The audit owner's lock (audit/audit-owner.ts). */
  auditOwner: 1,
} as const;

/** `portcullis start`'s own first-admin and demo set-up, before the served gateway exists (closed idle). */
export const BOOTSTRAP_POOL = 3;

/** graphile-worker's pool: one connection per concurrent task, its LISTEN connection, and one for its housekeeping. */
export const taskWorkerPool = (taskConcurrency: number) => taskConcurrency + 2;

export type ConnectionBudget = { parts: Record<string, number>; total: number };

/** The most connections one `portcullis start` process opens, given its query pool and task concurrency. */
export function connectionBudget(opts: { queryPoolMax: number; taskConcurrency: number }): ConnectionBudget {
  const parts: Record<string, number> = {
    query: opts.queryPoolMax,
    ...HOT_PATH_POOLS,
    taskWorkers: taskWorkerPool(opts.taskConcurrency),
    ...SESSION_CONNECTIONS,
    bootstrap: BOOTSTRAP_POOL,
  };
  return { parts, total: Object.values(parts).reduce((a, b) => a + b, 0) };
}

/** Where each kind of connection goes. */
export type DatabaseRoutes = {
  /** The query pools (possibly a transaction pooler). */
  queryUrl: string;
  /** LISTEN, session advisory locks, graphile-worker, migrations: always a real session. */
  sessionUrl: string;
  /** The query URL is a transaction pooler: no startup options, no named prepared statements on it. */
  transactionPooler: boolean;
};

export function databaseRoutes(queryUrl: string, config: { databaseDirectUrl?: string | undefined; databasePoolMode: "session" | "transaction" }): DatabaseRoutes {
  return { queryUrl, sessionUrl: config.databaseDirectUrl ?? queryUrl, transactionPooler: config.databasePoolMode === "transaction" };
}
