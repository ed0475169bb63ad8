// A tap on node-postgres in a gateway process of the benchmark: it counts the statements the process sends
// (Prisma's adapter, graphile-worker, the change bus and the audit writer all go through pg.Client#query), and
// for the polling baseline it drops graphile-worker's `LISTEN "jobs:insert"`, so that process's workers can
// only find new jobs by polling (every pollInterval, 1000 ms in the engine). Nothing else changes: the same
// engine, the same SQL, the same worker pool. Must be installed before the gateway opens any connection.
import pg from "pg";

export type SqlCount = { statement: string; count: number };

export type PgTap = {
  /**
   * Statements sent since the last reset, in all, and the most frequent ones (first 70 characters); `queued`:
   * statements sent on a connection that was still busy with another (pg queues them, and warns).
   */
  counts(): { total: number; top: SqlCount[]; queued: SqlCount[] };
  reset(): void;
  /** How many `LISTEN "jobs:insert"` were dropped (polling baseline only). */
  droppedListens(): number;
};

const GRAPHILE_LISTEN = 'LISTEN "jobs:insert"; LISTEN "worker:migrate";';

function normalize(text: string): string {
  return text.slice(0, 140).replace(/\s+/g, " ").trim().slice(0, 70);
}

export function installPgTap(opts: { dropJobNotify: boolean }): PgTap {
  const byStatement = new Map<string, number>();
  const queued = new Map<string, number>();
  let total = 0;
  let dropped = 0;
  type Query = (this: pg.Client, ...args: unknown[]) => unknown;
  const proto = pg.Client.prototype as unknown as { query: Query };
  const original = proto.query;
  proto.query = function (this: pg.Client, ...args: unknown[]) {
    const first = args[0];
    const text = typeof first === "string" ? first : (first as { text?: unknown } | null)?.text;
    if (typeof text === "string") {
      if (opts.dropJobNotify && text === GRAPHILE_LISTEN) {
        dropped++;
        args[0] = 'LISTEN "worker:migrate";';
      }
      total++;
      const key = normalize(text);
      byStatement.set(key, (byStatement.get(key) ?? 0) + 1);
      if (((this as unknown as { _queryQueue?: unknown[] })._queryQueue?.length ?? 0) > 0)
        queued.set(key, (queued.get(key) ?? 0) + 1);
    }
    return original.apply(this, args);
  };
  return {
    counts() {
      const list = (m: Map<string, number>) =>
        [...m.entries()]
          .sort((a, b) => b[1] - a[1])
          .slice(0, 25)
          .map(([statement, count]) => ({ statement, count }));
      return { total, top: list(byStatement), queued: list(queued) };
    },
    reset() {
      byStatement.clear();
      queued.clear();
      total = 0;
    },
    droppedListens: () => dropped,
  };
}
