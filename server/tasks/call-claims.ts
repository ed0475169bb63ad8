// The claim row of an ordinary call (CLAIM_ORIGIN, see claim-origin.ts) on the hot path, in one round trip: the
// same lock-then-look-then-insert as the task engine's claim (lock-claim.ts), over a small pg pool of its own. A
// lone claim is one prepared call of the database function portcullis_claim_call (D103); claims that arrive
// together share a round trip as one simple-query string of one short transaction each (BEGIN; lock; INSERT …
// WHERE NOT EXISTS; COMMIT, group-batches.ts), and so do drops. Each statement (of the string, or of the
// function) takes its own snapshot, so the INSERT, run once the lock is held, sees every claim committed before
// it, as the Prisma transaction (five round trips and a serialised interactive transaction) did. When an earlier
// identical call is found the INSERT inserts nothing and the caller takes the full path, which answers with that
// call's task.
import { randomUUID } from "node:crypto";
import pg from "pg";
import { HOT_PATH_POOLS } from "../db/connection-budget";
import type { Task } from "../db/client";
import { groupBatches } from "../db/group-batches";
import type { Logger } from "../logger";
import { CLAIM_ORIGIN } from "./claim-origin";
import { CLAIM_LOCK_CLASS, claimLockKey } from "./lock-claim";

/** What a claim row records (the columns taskRow sets for a RUNNING claim of this runner). */
export type ClaimRow = {
  ownerId: string;
  agentSessionId: string;
  toolId: string | null;
  toolName: string;
  /** Made storable already (toJson). */
  arguments: unknown;
  argumentsHash: string;
  retryable: boolean;
  maxAttempts: number;
  requestId: string;
  endpoint: string;
  runnerId: string;
};

export type CallClaims = {
  /** The new claim, or null when an identical call (within `dedupeMs`, or still running) came first. */
  claim(row: ClaimRow, dedupeMs: number): Promise<Task | null>;
  /** Deletes a claim answered in time; false when it became a task meanwhile (someone was handed its id). */
  drop(id: string): Promise<boolean>;
  close(): Promise<void>;
};

const lit = (v: string | null) => (v === null ? "NULL" : pg.escapeLiteral(v));
const REPLAYABLE = "('PENDING','RUNNING','SUCCEEDED')";

type Claiming = { row: ClaimRow; dedupeMs: number; id: string; now: Date };

/** One claim's transaction: the lock, then the row unless an identical call is still running or recent. */
function claimSql({ row, dedupeMs, id, now }: Claiming): string {
  const lock = claimLockKey(["call", row.agentSessionId, row.toolName, row.argumentsHash]);
  const at = `${lit(now.toISOString())}::timestamp`;
  const since = `${lit(new Date(now.getTime() - dedupeMs).toISOString())}::timestamp`;
  const values = [
    lit(id), "'RUNNING'", lit(row.ownerId), lit(row.agentSessionId), lit(row.toolId), lit(row.toolName),
    `${lit(JSON.stringify(row.arguments))}::jsonb`, lit(row.argumentsHash), String(row.retryable), String(row.maxAttempts),
    lit(row.requestId), lit(row.endpoint), lit(CLAIM_ORIGIN), lit(row.runnerId), at, "1", at, at,
  ];
  return `BEGIN;
SELECT pg_advisory_xact_lock(${CLAIM_LOCK_CLASS}::int, ${lock}::int);
INSERT INTO tasks ("id","status","ownerId","agentSessionId","toolId","toolName","arguments","argumentsHash","retryable","maxAttempts","requestId","endpoint","origin","runnerId","startedAt","attempts","createdAt","updatedAt")
SELECT ${values.join(", ")}
WHERE NOT EXISTS (SELECT 1 FROM tasks WHERE "agentSessionId" = ${lit(row.agentSessionId)} AND "argumentsHash" = ${lit(row.argumentsHash)}
  AND "toolName" = ${lit(row.toolName)} AND "createdAt" >= ${since} AND status IN ${REPLAYABLE})
RETURNING id;
COMMIT;
`;
}

/** `transactionPooler`: databaseUrl is PgBouncer in transaction mode: no startup options, no named prepared statements. */
export function createCallClaims(databaseUrl: string, logger?: Logger, opts: { transactionPooler?: boolean } = {}): CallClaims {
  // A claim coordinates calls that are running (other processes must see it at once, which commit gives them
  // whatever synchronous_commit says); it need not outlive a PostgreSQL crash, which ends those calls anyway.
  // So its commits do not wait for the WAL flush: two fsyncs fewer on every call's path.
  const pool = new pg.Pool({
    connectionString: databaseUrl,
    max: HOT_PATH_POOLS.callClaims,
    connectionTimeoutMillis: 5_000,
    ...(!opts.transactionPooler && { options: "-c synchronous_commit=off" }),
  });
  pool.on("error", (err) => logger?.warn({ err }, "call-claim connection failed"));

  // A lone claim is one call of portcullis_claim_call (migration claim_call_function, D103): the same lock, look
  // and insert as claimSql, as a prepared statement whose plans are cached per connection.
  const claimOne = async ({ row, dedupeMs, id, now }: Claiming): Promise<boolean | Error> => {
    try {
      const { rows } = await pool.query<{ claimed: boolean }>({
        // A named statement lives on one server connection, which a transaction pooler does not keep for us.
        ...(!opts.transactionPooler && { name: "portcullis_claim_call" }),
        text: "SELECT portcullis_claim_call($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16) AS claimed",
        values: [
          CLAIM_LOCK_CLASS, claimLockKey(["call", row.agentSessionId, row.toolName, row.argumentsHash]), id, row.ownerId, row.agentSessionId, row.toolId, row.toolName,
          JSON.stringify(row.arguments), row.argumentsHash, row.retryable, row.maxAttempts, row.requestId, row.endpoint, row.runnerId,
          now.toISOString(), new Date(now.getTime() - dedupeMs).toISOString(),
        ],
      });
      return rows[0]?.claimed === true;
    } catch (err) {
      return err instanceof Error ? err : new Error(String(err));
    }
  };
  // Claims that arrive together are sent together: one string of one short transaction each (each its own
  // lock, so no two locks are held at once and nothing can deadlock). Three batches may be in the database at
  // once (the fourth connection is the drops'): under load one backend working through every claim alone was
  // where calls queued while cores idled.
  const claimBatch = groupBatches(async (items: Claiming[]): Promise<(boolean | Error)[]> => {
    if (items.length === 1) return [await claimOne(items[0]!)];
    const client = await pool.connect();
    try {
      const results = (await client.query(items.map(claimSql).join(""))) as unknown as pg.QueryResult[];
      return items.map((_, i) => results[i * 4 + 2]?.rowCount === 1);
    } catch {
      // The string stops at the failing statement: the claims before it are committed. Each of the rest is
      // tried alone, so a claim the database refuses fails only its own call.
      await client.query("ROLLBACK").catch(() => undefined);
      const { rows } = await pool.query<{ id: string }>("SELECT id FROM tasks WHERE id = ANY($1::text[])", [items.map((c) => c.id)]);
      const committed = new Set(rows.map((r) => r.id));
      return Promise.all(items.map(async (c) => (committed.has(c.id) ? true : claimOne(c))));
    } finally {
      client.release();
    }
  }, 64, 3);

  // Claims answered in time are deleted together.
  const dropBatch = groupBatches(async (ids: string[]): Promise<boolean[]> => {
    const { rows } = await pool.query<{ id: string }>(`DELETE FROM tasks WHERE id = ANY($1::text[]) AND origin = '${CLAIM_ORIGIN}' RETURNING id`, [ids]);
    const dropped = new Set(rows.map((r) => r.id));
    return ids.map((id) => dropped.has(id));
  });

  return {
    async claim(row, dedupeMs) {
      const id = randomUUID();
      const now = new Date();
      const claimed = await claimBatch({ row, dedupeMs, id, now });
      if (claimed instanceof Error) throw claimed;
      if (!claimed) return null;
      return {
        ...row, id, status: "RUNNING", origin: CLAIM_ORIGIN, arguments: row.arguments as Task["arguments"], idempotencyKey: null, attempts: 1,
        progress: null, progressTotal: null, progressMessage: null, result: null, resultTruncated: false, errorCode: null, errorMessage: null,
        jobId: null, callbackUrl: null, workerId: null, resultBytes: null, createdAt: now, startedAt: now, finishedAt: null, updatedAt: now, expiresAt: null,
      };
    },
    drop: (id) => dropBatch(id),
    close: () => pool.end(),
  };
}
