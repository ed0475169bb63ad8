// Group commit for audit events on the request path. A call waits until its event is committed, but calls
// that finish together share one multi-row INSERT and one commit: the first event is written at once (a lone
// call pays one insert, no timer), and the events that arrive while inserts run go into the next one.
// Nothing data-dependent can lose an event: every row is made storable first (storable-row.ts), a batch the
// database refuses is retried row by row (a row it still refuses, in a last-resort ASCII form), and rows the
// database cannot take at all are fsync'd to a local spool before their calls are answered and replayed in
// order when it is back (audit-spool.ts).
import { storableText } from "../db/storable";
import type { DbTx } from "../db/client";
import { insertRows, prismaSink, refusedAsData, STARTED, type AuditSink } from "./audit-sink";
import { sweepInterruptedCalls, type AuditOwner } from "./audit-owner";
import { auditLane, type Pending } from "./audit-lane";
import { eventId } from "./event-id";
import { openAuditSpool, type AuditSpool, type SpooledRow } from "./audit-spool";
import { redactor, storedArguments, type Redactor } from "./redaction";
import { detailsWith, fallbackRow, storableRow } from "./storable-row";

export { pgSink, prismaSink, type AuditSink } from "./audit-sink";

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
  /** What the user or model said it wanted (`_meta.intent`), kept apart from the executed arguments. */
  intent?: string | null;
};

/**
 * A row as it is stored: made storable before redaction, so the row records what was sanitized (redaction hides
 * NUL too), then redacted. A call's record and its outcome carry the same arguments object, so what was made of
 * it is remembered (by identity, for as long as the call holds it) and the outcome does not redact it again.
 */
function preparer(): (row: AuditRow) => AuditRow {
  const prepared = new WeakMap<object, { by: Redactor; arguments: unknown; sanitized: boolean }>();
  return (row) => {
    const args = row.arguments;
    const key = args !== null && typeof args === "object" ? args : null;
    const hit = key && prepared.get(key);
    const by = redactor();
    // Only under the same redactor: settings saved or a secret stored in between apply to every later row.
    if (!hit || hit.by !== by) {
      const stored = redactRow(storableRow(row));
      if (key) prepared.set(key, { by, arguments: stored.arguments, sanitized: sanitizedColumns(stored).includes("arguments") });
      return stored;
    }
    const rest = redactRow(storableRow({ ...row, arguments: null }));
    if (!hit.sanitized) return { ...rest, arguments: hit.arguments };
    return { ...rest, arguments: hit.arguments, details: detailsWith(rest.details, { sanitized: [...sanitizedColumns(rest), "arguments"] }) };
  };
}

const sanitizedColumns = (row: AuditRow): string[] => {
  const d = row.details as { sanitized?: unknown } | null | undefined;
  return d && typeof d === "object" && Array.isArray(d.sanitized) ? (d.sanitized as string[]) : [];
};

/** Redaction before anything is stored (server/audit/redaction.ts): values, free text and details. */
function redactRow(row: AuditRow): AuditRow {
  const r = redactor();
  const args = row.arguments;
  return {
    ...row,
    arguments: args && typeof args === "object" && !Array.isArray(args) ? storedArguments(r, args as Record<string, unknown>) : r.value(args),
    reason: row.reason === null ? null : r.text(row.reason),
    ...(row.details !== undefined && { details: r.value(row.details) }),
    // Cut where a surrogate pair stays whole: half of one could not be stored.
    ...(row.intent && { intent: r.text(storableText(row.intent, 2000).text) }),
  };
}

export type AuditWriter = {
  /** Resolves once the event is committed; rejects if it could not be (the caller must not report success). */
  write(row: AuditRow): Promise<void>;
  /**
   * Splits a call's event (when the writer has an owner, see audit-owner.ts): the request record (status
   * `started`) is handed over now, `committed` resolving once it is committed or spooled; `end` writes the
   * outcome into the same row (same eventId). Absent: one event, written when the call ends.
   */
  begin?(row: AuditRow): { committed: Promise<void>; end(row: AuditRow): Promise<void> };
  /**
   * Writes the event in the caller's transaction, so it commits (or not) with the change it records: a status
   * and its audit event are one commit, and no crash can leave one without the other. A row the database
   * refuses as data is written in its last-resort form (under a savepoint); any other failure fails the
   * transaction.
   */
  inTransaction(tx: DbTx, row: AuditRow): Promise<void>;
  /** Resolves when everything handed over so far has been written or has failed. */
  drain(): Promise<void>;
  close(): Promise<void>;
  /** Write lag, read by the /metrics scrape (metrics/gateway-metrics.ts). */
  stats?(): AuditWriterStats;
  /** Resolves once the spool has been replayed into the database (or the writer closes). */
  replayed?(): Promise<void>;
};

/** Rows handed over but not yet committed (queued or in the batch being inserted), since when the oldest waits, and the last batch. */
export type AuditWriterStats = {
  pending: number;
  oldestPendingSince: number | null;
  lastBatch: { rows: number; ms: number; ok: boolean } | null;
  /** Rows in the local spool waiting for the database, since when the oldest waits, and how many were replayed. */
  spool?: { pending: number; oldestSince: number | null; replayed: number } | null;
};

/** How long a call's outcome waits for a request record to ride along with before it goes on its own. */
export const OUTCOME_RIDE_MS = 5;

export type AuditWriterOptions = {
  maxBatch?: number;
  timeoutMs?: number;
  /** Where rows go when the database cannot take them (DATA_DIR/audit-spool); none: such calls are answered with an error. */
  spoolDir?: string;
  /** Whose request records this writer commits; with one, calls' events are split (begin) and the records of dead owners are swept. */
  owner?: AuditOwner;
  /** How often the records of dead owners are looked for (besides at start); default 60 s. */
  sweepIntervalMs?: number;
  /** Problems the writer handles itself but someone should hear of (spool unreadable, replay failing). */
  onError?: (err: unknown, msg: string) => void;
};

export function createAuditWriter(sink: AuditSink, opts: AuditWriterOptions = {}): AuditWriter {
  const maxBatch = opts.maxBatch ?? 500;
  const timeoutMs = opts.timeoutMs ?? 10_000;
  const onError = opts.onError ?? (() => undefined);
  let lastBatch: AuditWriterStats["lastBatch"] = null;
  let replayed = 0;
  let closed = false;
  let opened: AuditSpool | undefined;
  // Opened at once: the files of a process that crashed are replayed at start, before anything newer.
  const spool: Promise<AuditSpool | undefined> = opts.spoolDir
    ? openAuditSpool(opts.spoolDir, (err, file) => onError(err, `a torn line in the audit spool ${file} was skipped`)).then(
        (s) => {
          opened = s;
          if (s.pending()) replay();
          return s;
        },
        (err: unknown) => {
          onError(err, "the audit spool cannot be opened; calls whose events the database refuses are answered with an error");
          return undefined;
        },
      )
    : Promise.resolve(undefined);

  const insert = (rows: SpooledRow[]) => insertRows(sink, rows, timeoutMs);

  /** One row, then its fallback form if the database refused it as data; rethrows what it could not write. */
  async function insertOne(row: SpooledRow) {
    try {
      await insert([row]);
    } catch (err) {
      if (!refusedAsData(err)) throw err;
      await insert([fallbackRow(row, err instanceof Error ? err.message : String(err))]);
    }
  }

  /** Calls are answered once their rows are fsync'd in the spool; without one, with the database's error. */
  async function toSpool(batch: Pending[], cause: unknown) {
    const s = await spool;
    try {
      if (!s) throw cause;
      await s.append(batch.map((p) => p.row));
    } catch (err) {
      for (const p of batch) p.reject(err);
      return;
    }
    for (const p of batch) p.resolve();
    replay();
  }

  async function write(batch: Pending[]) {
    // While older rows wait in the spool (those of a crashed process too), newer ones queue behind them: the log
    // keeps its order.
    if (opts.spoolDir && !opened) await spool;
    if (opened?.pending()) return toSpool(batch, new Error("the audit spool is being replayed"));
    try {
      await insert(batch.map((p) => p.row));
      for (const p of batch) p.resolve();
      return;
    } catch (err) {
      if (!refusedAsData(err)) return toSpool(batch, err);
    }
    // One row the database refuses must not take the others down: each is tried alone.
    for (const [i, p] of batch.entries()) {
      try {
        await insertOne(p.row);
        p.resolve();
      } catch (err) {
        if (refusedAsData(err)) await toSpool([p], err);
        else return toSpool(batch.slice(i), err);
      }
    }
  }

  // Request records (and whole events) and outcomes queue apart; outcomes ride with records (audit-lane.ts).
  const onBatch = (batch: NonNullable<AuditWriterStats["lastBatch"]>) => (lastBatch = batch);
  const outcomes = auditLane({ maxBatch, write, onBatch, waitMs: OUTCOME_RIDE_MS });
  const records = auditLane({ maxBatch, write, onBatch, riders: (room) => outcomes.take(room) });

  // Replay: the spool's rows in order, a batch at a time, until it is empty; while the database refuses, again
  // after a growing pause (100 ms to 5 s). Close ends the pause.
  let replaying: Promise<void> | undefined;
  let wake: (() => void) | undefined;
  function replay() {
    replaying ??= replayAll().finally(() => {
      replaying = undefined;
      // Rows appended after the loop saw an empty spool but before it ended would wait for the next failure.
      if (opened?.pending() && !closed) replay();
    });
  }
  async function replayAll() {
    const s = opened;
    let pause = 100;
    while (s?.pending() && !closed) {
      try {
        const rows = await s.head(maxBatch);
        if (!rows.length) throw new Error(`the audit spool counts ${String(s.pending())} rows but none could be read`);
        try {
          await insert(rows);
          await s.committed(rows.length);
          replayed += rows.length;
        } catch (err) {
          if (!refusedAsData(err)) throw err;
          await insertOne(rows[0]!);
          await s.committed(1);
          replayed += 1;
        }
        pause = 100;
      } catch (err) {
        onError(err, `replaying the audit spool failed (${String(s.pending())} rows wait); trying again in ${String(pause)} ms`);
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, pause);
          wake = () => {
            clearTimeout(timer);
            resolve();
          };
        });
        pause = Math.min(pause * 2, 5_000);
      }
    }
  }

  const drain = async () => {
    await Promise.all([records.drain(), outcomes.drain()]);
  };
  const preparedRow = preparer();
  const enqueue = (row: AuditRow, id: string, ownerId?: string, to = records) =>
    new Promise<void>((resolve, reject) => {
      const stored = preparedRow(row);
      // The owner is the sweep's key: added after redaction, whose patterns could mask it.
      const details = ownerId && { details: detailsWith(stored.details, { owner: ownerId }) };
      to.push({ row: { ...stored, ...details, eventId: id, occurredAt: new Date().toISOString() }, resolve, reject });
    });

  // Request records of dead processes are marked interrupted: at start, then now and then (a process that
  // crashes while this one lives). Only once this writer's own lock is held, so its records are never swept.
  const owner = opts.owner;
  let sweeper: NodeJS.Timeout | undefined;
  let sweeping: Promise<unknown> | undefined;
  const sweep = () => {
    sweeping ??= sweepInterruptedCalls(sink, owner!.id)
      .catch((err: unknown) => onError(err, "marking the calls of stopped gateway processes interrupted failed"))
      .finally(() => (sweeping = undefined));
  };
  const swept: Promise<void> | undefined = owner?.held.then(() => {
    if (closed) return;
    sweep();
    sweeper = setInterval(sweep, opts.sweepIntervalMs ?? 60_000);
    sweeper.unref();
  });
  return {
    write: (row) => enqueue(row, eventId()),
    async inTransaction(tx, row) {
      const prepared: SpooledRow = { ...redactRow(storableRow(row)), eventId: eventId(), occurredAt: new Date().toISOString() };
      const sink = prismaSink(tx);
      await tx.$executeRawUnsafe("SAVEPOINT audit_event");
      try {
        await insertRows(sink, [prepared], timeoutMs);
      } catch (err) {
        if (!refusedAsData(err)) throw err;
        await tx.$executeRawUnsafe("ROLLBACK TO SAVEPOINT audit_event");
        await insertRows(sink, [fallbackRow(prepared, err instanceof Error ? err.message : String(err))], timeoutMs);
      }
    },
    ...(owner && {
      begin(row: AuditRow) {
        const id = eventId();
        // Named for the sweep only once the owner lock is held: a record must not look like a dead process's.
        const committed = owner.held.then(() => enqueue({ ...row, status: STARTED }, id, owner.id));
        // Either order is safe: an outcome holds everything its record does, and a record arriving after its
        // outcome changes nothing (audit-sink.ts's upsert).
        return { committed, end: (outcome: AuditRow) => enqueue(outcome, id, undefined, outcomes) };
      },
    }),
    drain,
    /** Resolves when the spool is empty (or the writer closes). */
    replayed: async () => {
      while (replaying) await replaying;
    },
    async close() {
      await drain();
      closed = true;
      clearInterval(sweeper);
      await swept;
      await sweeping;
      await owner?.close();
      wake?.();
      await replaying;
      await (await spool)?.close();
      await sink.close?.();
    },
    stats: () => ({
      pending: records.pending() + outcomes.pending(),
      oldestPendingSince: [records.oldestSince(), outcomes.oldestSince()].reduce<number | null>((a, b) => (a === null ? b : b === null ? a : Math.min(a, b)), null),
      lastBatch,
      spool: opened ? { pending: opened.pending(), oldestSince: opened.oldestSince(), replayed } : null,
    }),
  };
}
