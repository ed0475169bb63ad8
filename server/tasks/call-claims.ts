// The claim of an ordinary call (CLAIM_ORIGIN, see claim-origin.ts) on the hot path: a row of call_claims (its own
// UNLOGGED table, primary key agent session + tool + arguments hash, no other index), made with one
// INSERT … ON CONFLICT DO NOTHING and deleted with one DELETE, over a small pg pool of its own. No transaction and
// no advisory lock: the primary key decides between racing identical calls on any process (the second waits for the
// first's insert to commit, then inserts nothing), and the INSERT also inserts nothing when `tasks` holds an
// identical call still running or finished within the dedupe window. A caller that claimed nothing takes the full
// path (claim-task.ts), which joins the claim (join-claim.ts) or answers with that task. Claims that arrive
// together go as one INSERT of many rows, drops as one DELETE; a claim or drop alone as a statement of one row.
import { randomUUID } from "node:crypto";
import pg from "pg";
import { HOT_PATH_POOLS } from "../db/connection-budget";
import type { Task } from "../db/client";
import { groupBatches } from "../db/group-batches";
import type { Logger } from "../logger";
import { CLAIM_ORIGIN } from "./claim-origin";

/** What a claim row records (what the task made of it needs). */
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

/** A claim as its owner knows it: its key and its id (the id its task gets if it becomes one). */
export type ClaimRef = Pick<Task, "id" | "agentSessionId" | "toolName" | "argumentsHash">;

export type CallClaims = {
  /** The new claim (shaped as the RUNNING task it may become), or null when an identical call (within `dedupeMs`, or still running) came first. */
  claim(row: ClaimRow, dedupeMs: number): Promise<Task | null>;
  /** Deletes a claim answered in time; false when it became a task meanwhile (a twin joined it) or is gone. */
  drop(claim: ClaimRef): Promise<boolean>;
  /** Deletes a claim whatever became of it: its call has ended, and so has the task made of it, if any. */
  release(claim: ClaimRef): Promise<void>;
  close(): Promise<void>;
};

type Claiming = { row: ClaimRow; since: Date; id: string; now: Date };

const CLAIM_SQL = `INSERT INTO call_claims ("agentSessionId", "toolName", "argumentsHash", "id", "runnerId", "ownerId", "toolId", "arguments", "retryable", "maxAttempts", "requestId", "endpoint", "createdAt")
SELECT c.session, c.tool, c.hash, c.id, c.runner, c.owner, c.tool_id, c.args, c.retryable, c.max_attempts, c.request, c.endpoint, c.created
FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[], $8::text[], $9::boolean[], $10::int[], $11::text[], $12::text[], $13::timestamp[], $14::timestamp[])
  AS c(session, tool, hash, id, runner, owner, tool_id, args, retryable, max_attempts, request, endpoint, created, since)
WHERE NOT EXISTS (SELECT 1 FROM tasks t WHERE t."agentSessionId" = c.session AND t."argumentsHash" = c.hash AND t."toolName" = c.tool
  AND t."createdAt" >= c.since AND t.status IN ('PENDING', 'RUNNING', 'SUCCEEDED'))
ON CONFLICT DO NOTHING
RETURNING id`;

// A claim alone (every claim below load, and each claim of a refused batch tried again): the same INSERT over plain
// parameters. PostgreSQL then parses no arrays and runs no unnest: claim-cost.ts at c=1 measured its CPU per claim
// and drop 0.18–0.25 ms with the many-row statements and 0.11–0.14 with these (D171).
const CLAIM_ONE_SQL = `INSERT INTO call_claims ("agentSessionId", "toolName", "argumentsHash", "id", "runnerId", "ownerId", "toolId", "arguments", "retryable", "maxAttempts", "requestId", "endpoint", "createdAt")
SELECT $1::text, $2::text, $3::text, $4::text, $5::text, $6::text, $7::text, $8::text, $9::boolean, $10::int, $11::text, $12::text, $13::timestamp
WHERE NOT EXISTS (SELECT 1 FROM tasks t WHERE t."agentSessionId" = $1::text AND t."argumentsHash" = $3::text AND t."toolName" = $2::text
  AND t."createdAt" >= $14::timestamp AND t.status IN ('PENDING', 'RUNNING', 'SUCCEEDED'))
ON CONFLICT DO NOTHING
RETURNING id`;
/** One claim by its key: DROP_ONE_SQL's and RELEASE_SQL's parameters. */
const ONE_KEY = `c."agentSessionId" = $1 AND c."toolName" = $2 AND c."argumentsHash" = $3 AND c.id = $4`;
const DROP_ONE_SQL = `DELETE FROM call_claims c WHERE ${ONE_KEY} AND c."taskId" IS NULL RETURNING c.id`;
/** A claim whose task has settled goes, joined or not. */
const RELEASE_SQL = `DELETE FROM call_claims c WHERE ${ONE_KEY}`;

const KEYS = `unnest($1::text[], $2::text[], $3::text[], $4::text[]) AS k(session, tool, hash, id)
WHERE c."agentSessionId" = k.session AND c."toolName" = k.tool AND c."argumentsHash" = k.hash AND c.id = k.id`;
/** The parameters of a one-row statement as the arrays of its many-row twin: column `i` of every row. */
const columns = (rows: unknown[][]): unknown[][] => rows[0]!.map((_, i) => rows.map((r) => r[i]));
/** A claim's key, in the order of ONE_KEY's parameters and KEYS's arrays. */
const keyValues = (r: ClaimRef) => [r.agentSessionId ?? "", r.toolName, r.argumentsHash, r.id];

/** `transactionPooler`: databaseUrl is PgBouncer in transaction mode: no startup options, no named prepared statements. */
export function createCallClaims(databaseUrl: string, logger?: Logger, opts: { transactionPooler?: boolean } = {}): CallClaims {
  // A claim coordinates calls that are running (other processes must see it at once, which commit gives them
  // whatever synchronous_commit says); it need not outlive a PostgreSQL crash, which ends those calls anyway.
  // (Its table is UNLOGGED, so its own commits write no WAL; this covers the rest of the connection's work.)
  const pool = new pg.Pool({
    connectionString: databaseUrl,
    max: HOT_PATH_POOLS.callClaims,
    connectionTimeoutMillis: 5_000,
    ...(!opts.transactionPooler && { options: "-c synchronous_commit=off" }),
  });
  pool.on("error", (err) => logger?.warn({ err }, "call-claim connection failed"));
  // A named statement lives on one server connection, which a transaction pooler does not keep for us.
  const named = (name: string) => (opts.transactionPooler ? {} : { name });

  // A claim's values, in the order of CLAIM_ONE_SQL's parameters and CLAIM_SQL's arrays.
  const claimValues = (c: Claiming) => [
    c.row.agentSessionId, c.row.toolName, c.row.argumentsHash, c.id, c.row.runnerId, c.row.ownerId, c.row.toolId, JSON.stringify(c.row.arguments),
    c.row.retryable, c.row.maxAttempts, c.row.requestId, c.row.endpoint, c.now.toISOString(), c.since.toISOString(),
  ];
  const claimMany = async (items: Claiming[]): Promise<boolean[]> => {
    const one = items.length === 1;
    const values = one ? claimValues(items[0]!) : columns(items.map(claimValues));
    const { rows } = await pool.query<{ id: string }>(one ? { ...named("portcullis_claim_call"), text: CLAIM_ONE_SQL, values } : { ...named("portcullis_claim_calls"), text: CLAIM_SQL, values });
    const claimed = new Set(rows.map((r) => r.id));
    return items.map((c) => claimed.has(c.id));
  };
  // Claims that arrive together are one statement. A statement the database refuses inserts nothing, so then each
  // claim is tried alone and a claim the database refuses fails only its own call. One batch is in the database at
  // a time (D165): a claim is now cheap enough that one backend keeps up, and the claims arriving meanwhile make the
  // next batch larger (bench/gateway/claim-cost.ts: more claims per second and less PostgreSQL CPU than with three).
  const claimBatch = groupBatches(async (items: Claiming[]): Promise<(boolean | Error)[]> => {
    try {
      return await claimMany(items);
    } catch (err) {
      if (items.length === 1) return [err instanceof Error ? err : new Error(String(err))];
      return Promise.all(items.map((c) => claimMany([c]).then((r) => r[0]!, (e: unknown) => (e instanceof Error ? e : new Error(String(e))))));
    }
  }, 64, 1);

  // Claims answered in time are deleted together; one a twin joined (taskId set) is left to its settle.
  const dropBatch = groupBatches(async (refs: ClaimRef[]): Promise<boolean[]> => {
    const { rows } = await pool.query<{ id: string }>(
      refs.length === 1
        ? { ...named("portcullis_drop_claim"), text: DROP_ONE_SQL, values: keyValues(refs[0]!) }
        : { ...named("portcullis_drop_claims"), text: `DELETE FROM call_claims c USING ${KEYS} AND c."taskId" IS NULL RETURNING c.id`, values: columns(refs.map(keyValues)) },
    );
    const dropped = new Set(rows.map((r) => r.id));
    return refs.map((r) => dropped.has(r.id));
  });

  return {
    async claim(row, dedupeMs) {
      const id = randomUUID();
      const now = new Date();
      const claimed = await claimBatch({ row, since: new Date(now.getTime() - Math.max(dedupeMs, 0)), id, now });
      if (claimed instanceof Error) throw claimed;
      if (!claimed) return null;
      return {
        ...row, id, status: "RUNNING", origin: CLAIM_ORIGIN, arguments: row.arguments as Task["arguments"], idempotencyKey: null, attempts: 1,
        progress: null, progressTotal: null, progressMessage: null, result: null, resultTruncated: false, errorCode: null, errorMessage: null,
        jobId: null, callbackUrl: null, workerId: null, resultBytes: null, createdAt: now, startedAt: now, finishedAt: null, updatedAt: now, expiresAt: null,
      };
    },
    drop: (ref) => dropBatch(ref),
    async release(ref) {
      await pool.query({ ...named("portcullis_release_claim"), text: RELEASE_SQL, values: keyValues(ref) });
    },
    close: () => pool.end(),
  };
}
