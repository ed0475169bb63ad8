// Calls per server over the last hour, from the audit log: how many, how many failed, and the median
// duration — the servers list's "p50 latency, errors" columns. One grouped query over the (action, time) index.
import type { DbTx } from "../db/client";

export type CallStats = { count: number; errors: number; p50Ms: number | null };
export const CALL_STATS_WINDOW_MINUTES = 60;
export const NO_CALLS: CallStats = { count: 0, errors: 0, p50Ms: null };

export async function callStats(db: DbTx, slugs?: string[]): Promise<Map<string, CallStats>> {
  const since = new Date(Date.now() - CALL_STATS_WINDOW_MINUTES * 60_000);
  const rows = await db.$queryRaw<{ slug: string; count: bigint; errors: bigint; p50: number | null }[]>`
    SELECT "serverSlug" AS slug, count(*) AS count,
           count(*) FILTER (WHERE status IN ('error', 'interrupted')) AS errors,
           percentile_cont(0.5) WITHIN GROUP (ORDER BY "durationMs") AS p50
      FROM audit_events
     WHERE action = 'tool.called' AND "occurredAt" >= ${since} AND "serverSlug" IS NOT NULL
       AND (${slugs ?? null}::text[] IS NULL OR "serverSlug" = ANY(${slugs ?? null}::text[]))
     GROUP BY "serverSlug"`;
  return new Map(rows.map((r) => [r.slug, { count: Number(r.count), errors: Number(r.errors), p50Ms: r.p50 === null ? null : Math.round(r.p50) }]));
}
