// A queue of audit rows and its group commit (audit-writer.ts): the first row goes at once, rows arriving meanwhile
// form the next batch, at most maxBatch rows a statement. Calls' request records (and whole events) and calls'
// outcomes queue in lanes of their own, so a record, which its call's answer waits for, never waits behind the
// outcomes of earlier calls (D82). Outcomes ride along: each records batch takes the outcomes waiting at that moment
// into its own statement (`riders`), and an outcome no record takes goes on its own after `waitMs`, or at once when
// a batch of them is full or on drain.
import type { SpooledRow } from "./audit-spool";

/** A row handed over, settled once it is committed (or spooled), or refused. */
export type Pending = { row: SpooledRow; resolve(): void; reject(err: unknown): void };

export type AuditLane = {
  push(p: Pending): void;
  /** Up to `room` queued rows, taken out of this lane to ride in another's statement. */
  take(room: number): Pending[];
  /** Sends what is queued now; resolves once nothing of this lane is in flight. */
  drain(): Promise<void>;
  /** Rows queued or in the batch being written. */
  pending(): number;
  /** When the oldest of those was written down (its occurredAt), or null. */
  oldestSince(): number | null;
};

export function auditLane(opts: {
  maxBatch: number;
  /** Writes one batch: each row settled (resolved or rejected) by the time it returns. */
  write: (batch: Pending[]) => Promise<void>;
  /** After each batch: its size, how long it took, whether every row of it was written. */
  onBatch: (batch: { rows: number; ms: number; ok: boolean }) => void;
  /** Rows of another lane that ride in this lane's statements (up to the room a batch has left). */
  riders?: (room: number) => Pending[];
  /** How long a row waits for a ride before its batch goes on its own; without it, at once. */
  waitMs?: number;
}): AuditLane {
  const { maxBatch } = opts;
  let queue: Pending[] = [];
  let flushing: Promise<void> | undefined;
  let timer: NodeJS.Timeout | undefined;
  let inFlight: { rows: number; since: number } | undefined;
  async function flush() {
    while (queue.length > 0) {
      let batch = queue.length <= maxBatch ? queue : queue.slice(0, maxBatch);
      queue = queue.length <= maxBatch ? [] : queue.slice(maxBatch);
      if (opts.riders && batch.length < maxBatch) batch = [...batch, ...opts.riders(maxBatch - batch.length)];
      const started = performance.now();
      inFlight = { rows: batch.length, since: Date.parse(batch[0]!.row.occurredAt) };
      let ok = true;
      const failed = (p: Pending) => (err: unknown) => {
        ok = false;
        p.reject(err);
      };
      await opts.write(batch.map((p) => ({ ...p, reject: failed(p) })));
      opts.onBatch({ rows: batch.length, ms: performance.now() - started, ok });
      inFlight = undefined;
    }
    flushing = undefined;
  }
  const now = () => {
    clearTimeout(timer);
    timer = undefined;
    if (!queue.length) return flushing ?? Promise.resolve();
    flushing ??= flush();
    return flushing;
  };
  return {
    push(p) {
      queue.push(p);
      if (opts.waitMs === undefined || queue.length >= maxBatch) void now();
      else if (!flushing) timer ??= setTimeout(() => void now(), opts.waitMs);
    },
    take(room) {
      const taken = queue.length <= room ? queue : queue.slice(0, room);
      queue = queue.length <= room ? [] : queue.slice(room);
      if (!queue.length) {
        clearTimeout(timer);
        timer = undefined;
      }
      return taken;
    },
    drain: now,
    pending: () => (inFlight?.rows ?? 0) + queue.length,
    oldestSince: () => inFlight?.since ?? (queue[0] ? Date.parse(queue[0].row.occurredAt) : null),
  };
}
