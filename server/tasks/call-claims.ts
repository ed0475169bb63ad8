// The claim row of an ordinary call (CLAIM_ORIGIN, see claim-origin.ts) on the hot path, in one round trip: the
// same lock-then-look-then-insert as the task engine's claim (lock-claim.ts), sent as one simple-query string
// (BEGIN; lock; INSERT … WHERE NOT EXISTS; COMMIT) over a small pg pool of its own. Each statement of such a
// string takes its own snapshot, so the INSERT, run once the lock is held, sees every claim committed before
// it, as the Prisma transaction (five round trips and a serialised interactive transaction) did. When an
// earlier identical call is found the INSERT inserts nothing and the caller takes the full path, which answers
// with that call's task.
import { randomUUID } from "node:crypto";
import pg from "pg";
import type { Task } from "../db/client";
import type { Logger } from "../logger";
import { CLAIM_ORIGIN } from "./claim-origin";
import { CLAIM_LOCK_CLASS, claimLockKey } from "./lock-claim";

/** What a claim row records (the columns taskRow sets for a RUNNING claim of this runner). */
export type ClaimRow = {
  ownerId: string;
  agentSessionId: string;
  toolId: string;
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

export function createCallClaims(databaseUrl: string, logger?: Logger): CallClaims {
  const pool = new pg.Pool({ connectionString: databaseUrl, max: 4, connectionTimeoutMillis: 5_000 });
  pool.on("error", (err) => logger?.warn({ err }, "call-claim connection failed"));
  return {
    async claim(row, dedupeMs) {
      const id = randomUUID();
      const now = new Date();
      const since = new Date(now.getTime() - dedupeMs);
      const lock = claimLockKey(["call", row.agentSessionId, row.toolName, row.argumentsHash]);
      const at = lit(now.toISOString());
      const values = [
        lit(id), "'RUNNING'", lit(row.ownerId), lit(row.agentSessionId), lit(row.toolId), lit(row.toolName),
        `${lit(JSON.stringify(row.arguments))}::jsonb`, lit(row.argumentsHash), String(row.retryable), String(row.maxAttempts),
        lit(row.requestId), lit(row.endpoint), lit(CLAIM_ORIGIN), lit(row.runnerId), `${at}::timestamp`, "1", `${at}::timestamp`, `${at}::timestamp`,
      ];
      const sql = `BEGIN;
SELECT pg_advisory_xact_lock(${CLAIM_LOCK_CLASS}::int, ${lock}::int);
INSERT INTO tasks ("id","status","ownerId","agentSessionId","toolId","toolName","arguments","argumentsHash","retryable","maxAttempts","requestId","endpoint","origin","runnerId","startedAt","attempts","createdAt","updatedAt")
SELECT ${values.join(", ")}
WHERE NOT EXISTS (SELECT 1 FROM tasks WHERE "agentSessionId" = ${lit(row.agentSessionId)} AND "argumentsHash" = ${lit(row.argumentsHash)}
  AND "toolName" = ${lit(row.toolName)} AND "createdAt" >= ${lit(since.toISOString())}::timestamp AND status IN ${REPLAYABLE})
RETURNING id;
COMMIT;`;
      const results = (await pool.query(sql)) as unknown as pg.QueryResult[];
      if (results[2]?.rowCount !== 1) return null;
      return {
        ...row, id, status: "RUNNING", origin: CLAIM_ORIGIN, arguments: row.arguments as Task["arguments"], idempotencyKey: null, attempts: 1,
        progress: null, progressTotal: null, progressMessage: null, result: null, resultTruncated: false, errorCode: null, errorMessage: null,
        jobId: null, callbackUrl: null, workerId: null, resultBytes: null, createdAt: now, startedAt: now, finishedAt: null, updatedAt: now, expiresAt: null,
      };
    },
    async drop(id) {
      const { rowCount } = await pool.query(`DELETE FROM tasks WHERE id = $1 AND origin = '${CLAIM_ORIGIN}'`, [id]);
      return rowCount === 1;
    },
    close: () => pool.end(),
  };
}
