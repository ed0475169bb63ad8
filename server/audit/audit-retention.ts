// Audit retention: the one path that deletes audit events. audit_events refuses UPDATE always and DELETE unless
// the transaction set `portcullis.audit_retention = 'on'` (trigger of migration audit_search); this job sets it
// with SET LOCAL, so the flag ends with each transaction. Old rows go in batches (oldest first), each batch its
// own short transaction, so a large backlog never holds locks or one huge transaction for long.
import type { Db } from "../db/client";

export const DEFAULT_AUDIT_RETENTION_DAYS = 90;

export type AuditRetentionOptions = {
  /** Rows per transaction (default 5000). */
  batchSize?: number;
  /** "Now" for the cutoff (tests). */
  now?: Date;
};

/** Deletes audit events older than `days` days; answers how many went. `days` ≤ 0 keeps everything. */
export async function deleteExpiredAudit(db: Db, days: number = DEFAULT_AUDIT_RETENTION_DAYS, opts: AuditRetentionOptions = {}): Promise<number> {
  if (!Number.isFinite(days) || days <= 0) return 0;
  const batchSize = opts.batchSize ?? 5000;
  const cutoff = new Date((opts.now ?? new Date()).getTime() - days * 86_400_000).toISOString();
  let deleted = 0;
  for (;;) {
    const n = await db.$transaction(async (tx) => {
      await tx.$executeRaw`SELECT set_config('portcullis.audit_retention', 'on', true)`;
      return tx.$executeRaw`
        DELETE FROM audit_events WHERE id IN (
          SELECT id FROM audit_events WHERE "occurredAt" < ${cutoff}::timestamp ORDER BY "occurredAt", id LIMIT ${batchSize})`;
    });
    deleted += n;
    if (n < batchSize) return deleted;
  }
}
