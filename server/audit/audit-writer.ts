// Group commit for audit events on the request path. A call waits until its event is committed, but calls
// that finish together share one multi-row INSERT and one commit: the first event is written at once (a lone
// call pays one insert, no timer), and the events that arrive while inserts run go into the next one.
import pg from "pg";
import type { DbTx } from "../db/client";

/** The columns an audit event written here may set; the rest keep their defaults. */
export type AuditRow = {
  requestId: string | null;
  action: string;
  category: string;
  actorType: string;
  userId: string | null;
  ip: string | null;
  endpoint: string | null;
  serverSlug: string | null;
  toolName: string | null;
  mcpSessionId?: string | null;
  /** The agent and its agent session (absent for console calls). */
  agentId?: string | null;
  sessionId?: string | null;
  targetType?: string | null;
  details?: unknown;
  arguments: unknown;
  decision: string | null;
  ruleId: string | null;
  reason: string | null;
  status: string;
  errorCode: string | null;
  durationMs: number | null;
  resultBytes: number | null;
  truncated: boolean;
  upstreamVersion: string | null;
  /** The approval and task the event belongs to (approval steps, task transitions, held calls). */
  approvalId?: string | null;
  taskId?: string | null;
};

export type AuditWriter = {
  /** Resolves once the event is committed; rejects if it could not be (the caller must not report success). */
  write(row: AuditRow): Promise<void>;
  /** Resolves when everything handed over so far has been written or has failed. */
  drain(): Promise<void>;
  close(): Promise<void>;
};

/** Where the INSERT goes: node-postgres (the gateway's own small pool) or a Prisma client. */
export type AuditSink = { execute(sql: string, json: string): Promise<unknown>; close?(): Promise<void> };

export function prismaSink(db: DbTx): AuditSink {
  return { execute: (sql, json) => db.$executeRawUnsafe(sql, json) };
}

/** Half the CPU of a Prisma raw statement per insert (measured: 0.26 vs 0.62 ms), and off Prisma's pool. */
export function pgSink(databaseUrl: string): AuditSink {
  const pool = new pg.Pool({ connectionString: databaseUrl, max: 2, connectionTimeoutMillis: 5_000 });
  pool.on("error", () => undefined); // a dropped idle connection is replaced on the next insert
  return { execute: (sql, json) => pool.query(sql, [json]), close: () => pool.end() };
}

const COLUMNS = [
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
] as const;
const LIST = COLUMNS.map((c) => `"${c}"`).join(", ");
// One parameter whatever the batch size: the rows as a JSON array, typed by the table's own row type.
const INSERT_SQL = `INSERT INTO audit_events (${LIST}) SELECT ${LIST} FROM json_populate_recordset(NULL::audit_events, $1::json)`;

type Pending = { row: AuditRow & { occurredAt: string }; resolve(): void; reject(err: unknown): void };

export function createAuditWriter(sink: AuditSink, opts: { maxBatch?: number; timeoutMs?: number } = {}): AuditWriter {
  const maxBatch = opts.maxBatch ?? 500;
  const timeoutMs = opts.timeoutMs ?? 10_000;
  let queue: Pending[] = [];
  let flushing: Promise<void> | undefined;

  // A hung database must not hold calls forever: past the timeout the batch fails (its calls answer with an
  // error) and the next batch is tried.
  async function insert(rows: Pending["row"][]) {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`the audit insert took longer than ${timeoutMs} ms`)), timeoutMs);
    });
    try {
      await Promise.race([sink.execute(INSERT_SQL, JSON.stringify(rows)), timeout]);
    } finally {
      clearTimeout(timer);
    }
  }

  async function flush() {
    while (queue.length > 0) {
      const batch = queue.length <= maxBatch ? queue : queue.slice(0, maxBatch);
      queue = queue.length <= maxBatch ? [] : queue.slice(maxBatch);
      try {
        await insert(batch.map((p) => p.row));
        for (const p of batch) p.resolve();
      } catch (err) {
        for (const p of batch) p.reject(err);
      }
    }
    flushing = undefined;
  }

  const drain = () => flushing ?? Promise.resolve();
  return {
    write(row) {
      return new Promise<void>((resolve, reject) => {
        queue.push({ row: { ...row, occurredAt: new Date().toISOString() }, resolve, reject });
        flushing ??= flush();
      });
    },
    drain,
    async close() {
      await drain();
      await sink.close?.();
    },
  };
}

// The writer a gateway built for its database client (see attachAuditWriter in server/index.ts); steps that
// are handed only `db` find it here.
const attached = new WeakMap<object, AuditWriter>();

export function attachAuditWriter(db: DbTx, writer: AuditWriter): void {
  attached.set(db, writer);
}

/** The writer attached to `db`, or a new one that writes through `db` itself. */
export function auditWriterFor(db: DbTx): AuditWriter {
  return attached.get(db) ?? createAuditWriter(prismaSink(db));
}
