// Where the audit writer's INSERT goes, and how: one statement per batch, idempotent by eventId, bounded in time,
// and which of its failures say the data was refused (worth retrying row by row) rather than the database.
import { HOT_PATH_POOLS } from "../db/connection-budget";
import pg from "pg";
import type { DbTx } from "../db/client";
import type { SpooledRow } from "./audit-spool";
import { JSON_COLUMNS } from "./storable-row";

/**
 * Where the rows go: node-postgres (the gateway's own small pool) or a Prisma client. `insert` writes the rows in
 * one statement (resolving once it is committed); `execute` runs the audit's other statements (the owner sweep),
 * their one parameter JSON.
 */
export type AuditSink = { insert(rows: SpooledRow[]): Promise<unknown>; execute(sql: string, json: string): Promise<unknown>; close?(): Promise<void> };

export function prismaSink(db: DbTx): AuditSink {
  return { insert: (rows) => db.$executeRawUnsafe(INSERT_JSON_SQL, JSON.stringify(rows)), execute: (sql, json) => db.$executeRawUnsafe(sql, json) };
}

/**
 * Half the CPU of a Prisma raw statement per insert (measured: 0.26 vs 0.62 ms), and off Prisma's pool. Each
 * statement text is prepared once per connection under a name of its own (D170): a request record's insert, which
 * a call's answer waits for, took 0.48 ms p50 parsed and planned every time and 0.30 ms prepared
 * (bench/gateway/call-skeleton.ts). A batch of a few rows (a c=1 call's record, with the outcome of the call before
 * riding along) goes as a VALUES list, its parameters typed by their columns, which PostgreSQL takes with less work
 * than the JSON array it would parse and map (D173). `transactionPooler`: databaseUrl is PgBouncer in transaction
 * mode, where a named statement would live on a server connection the next transaction may not get: statements go
 * unnamed.
 */
export function pgSink(databaseUrl: string, opts: { transactionPooler?: boolean } = {}): AuditSink {
  const pool = new pg.Pool({ connectionString: databaseUrl, max: HOT_PATH_POOLS.audit, connectionTimeoutMillis: 5_000 });
  pool.on("error", () => undefined); // a dropped idle connection is replaced on the next insert
  const names = new Map<string, string>();
  const nameOf = (sql: string) => {
    let name = names.get(sql);
    if (name === undefined) names.set(sql, (name = `portcullis_audit_${String(names.size + 1)}`));
    return name;
  };
  const query = (text: string, values: unknown[]) => pool.query(opts.transactionPooler ? { text, values } : { name: nameOf(text), text, values });
  return {
    insert: (rows) => (rows.length <= MAX_VALUES_ROWS ? query(insertValuesSql(rows.length), rows.flatMap(rowValues)) : query(INSERT_JSON_SQL, [JSON.stringify(rows)])),
    execute: (sql, json) => query(sql, [json]),
    close: () => pool.end(),
  };
}

const COLUMNS = [
  "eventId",
  "occurredAt",
  "requestId",
  "action",
  "category",
  "actorType",
  "userId",
  "ip",
  "endpoint",
  "serverSlug",
  "toolName",
  "mcpSessionId",
  "agentId",
  "sessionId",
  "targetType",
  "details",
  "arguments",
  "decision",
  "ruleId",
  "reason",
  "status",
  "errorCode",
  "durationMs",
  "resultBytes",
  "truncated",
  "upstreamVersion",
  "approvalId",
  "taskId",
  "intent",
] as const;
const LIST = COLUMNS.map((c) => `"${c}"`).join(", ");
/** A call's request record, committed while the call runs; its outcome later replaces this status. */
export const STARTED = "started";
// What a call's outcome sets on its request record; who called what, when and with which arguments stay as
// the record has them (the table's UPDATE trigger refuses any other change, migration audit_outcome).
const OUTCOME_COLUMNS = ["category", "details", "decision", "ruleId", "reason", "status", "errorCode", "durationMs", "resultBytes", "truncated", "upstreamVersion", "approvalId", "taskId"] as const;
const OUTCOME = OUTCOME_COLUMNS.map((c) => `"${c}" = EXCLUDED."${c}"`).join(", ");
// A row already there is a replay (after a crash, or an insert that timed out but committed) or a call's outcome
// arriving for its request record: a replayed request record or final event changes nothing, an outcome completes
// a row still `started` (or marked `interrupted` by the sweep: the outcome is what happened).
const ON_CONFLICT = `ON CONFLICT ("eventId") DO UPDATE SET ${OUTCOME} WHERE EXCLUDED."status" <> '${STARTED}' AND audit_events."status" IN ('${STARTED}', 'interrupted')`;
// One parameter whatever the batch size: the rows as a JSON array, typed by the table's own row type (a key a row
// lacks is NULL).
const INSERT_JSON_SQL = `INSERT INTO audit_events (${LIST}) SELECT ${LIST} FROM json_populate_recordset(NULL::audit_events, $1::json) ${ON_CONFLICT}`;

/** Up to this many rows a batch goes as a VALUES list (one prepared statement per count); more, as the JSON array. */
export const MAX_VALUES_ROWS = 4;
const valuesSql: string[] = [];
/** `INSERT … VALUES ($1, …), (…)` for `n` rows; the parameters are untyped, so each takes its column's type. */
function insertValuesSql(n: number): string {
  return (valuesSql[n] ??= `INSERT INTO audit_events (${LIST}) VALUES ${Array.from({ length: n }, (_, r) => `(${COLUMNS.map((_c, i) => `$${String(r * COLUMNS.length + i + 1)}`).join(", ")})`).join(", ")} ${ON_CONFLICT}`);
}
/**
 * A row's parameters, as json_populate_recordset would read them from its JSON: a missing key is NULL, a jsonb
 * column takes the value's JSON text, any other column an object's or array's JSON text and a scalar as it is.
 */
function rowValues(row: SpooledRow): unknown[] {
  return COLUMNS.map((c) => {
    const v = row[c];
    if (v === undefined || v === null) return null;
    return JSON_COLUMNS.has(c) || typeof v === "object" ? JSON.stringify(v) : v;
  });
}

/**
 * One row per event: a statement may not update a row twice, so a request record and its outcome in one batch
 * (a quick call, or a spool replay) are sent as the outcome alone, which holds everything the record does.
 */
function lastPerEvent(rows: SpooledRow[]): SpooledRow[] {
  const last = new Map<string, number>();
  rows.forEach((r, i) => last.set(r.eventId, i));
  return last.size === rows.length ? rows : rows.filter((r, i) => last.get(r.eventId) === i);
}

/**
 * Inserts the rows in one statement. A hung database must not hold calls forever: past `timeoutMs` the insert
 * counts as failed (its rows are spooled; if it commits after all, the replay skips them by eventId).
 */
export async function insertRows(sink: AuditSink, rows: SpooledRow[], timeoutMs: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`the audit insert took longer than ${timeoutMs} ms`)), timeoutMs);
  });
  try {
    await Promise.race([sink.insert(lastPerEvent(rows)), timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * The database refused the row itself (SQLSTATE class 22 data exception, 23 constraint, 54 limit): trying the
 * rows one by one, and a row in its fallback form, can help. Anything else (no connection, a timeout, a
 * shutdown) says the database is not taking writes now: the rows go to the spool.
 */
export function refusedAsData(err: unknown): boolean {
  const e = err as { code?: unknown; meta?: { code?: unknown }; cause?: { code?: unknown } };
  const code = [e.code, e.meta?.code, e.cause?.code].find((c): c is string => typeof c === "string" && /^[0-9A-Z]{5}$/.test(c));
  return !!code && /^(22|23|54)/.test(code);
}

