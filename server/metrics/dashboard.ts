// The console dashboard: tool-call traffic of the last N minutes from the audit log (one grouped query gives the
// per-minute series and the window's totals, another the top tools), pending approvals and unhealthy servers.
// Approvers and admins see every caller's calls; users see their own calls and their own approval requests.
import type {
  TDashboard,
  TDashboardPoint,
  TDashboardQuery,
  TDashboardTool,
  TUnhealthyServer,
} from "../../lib/dashboard-schemas";
import { hasRole, type TRole } from "../../lib/roles";
import type { DbTx } from "../db/client";

export type DashboardViewer = { userId: string; role: TRole };

const MINUTE = 60_000;
export const TOP_TOOLS = 10;

/** A per-minute row of the grouped query; `minute` null is the window's total (the empty grouping set). */
export type MinuteRow = {
  minute: Date | null;
  calls: bigint | number;
  errors: bigint | number;
  denials: bigint | number;
  held: bigint | number;
  p95: number | null;
};
export type ToolRow = {
  tool: string;
  calls: bigint | number;
  errors: bigint | number;
  denials: bigint | number;
  p95: number | null;
};
export type ServerRow = {
  slug: string;
  name: string;
  status: string;
  lastError: string | null;
  lastCheckedAt: Date | null;
};

/** The first minute of a window of `minutes` minutes that ends with the current minute. */
export function windowStart(now: Date, minutes: number): Date {
  return new Date(Math.floor(now.getTime() / MINUTE) * MINUTE - (minutes - 1) * MINUTE);
}

const ms = (v: number | null) => (v === null ? null : Math.round(v));
const rate = (errors: number, calls: number) => (calls > 0 ? errors / calls : null);

/** Every minute from `from`, `minutes` of them, with the rows' numbers where there were calls and zeros elsewhere. */
export function fillSeries(rows: MinuteRow[], from: Date, minutes: number): TDashboardPoint[] {
  const byMinute = new Map(rows.filter((r) => r.minute !== null).map((r) => [new Date(r.minute!).getTime(), r]));
  return Array.from({ length: minutes }, (_, i) => {
    const at = from.getTime() + i * MINUTE;
    const r = byMinute.get(at);
    const calls = Number(r?.calls ?? 0);
    const errors = Number(r?.errors ?? 0);
    return {
      at: new Date(at).toISOString(),
      calls,
      errors,
      denials: Number(r?.denials ?? 0),
      held: Number(r?.held ?? 0),
      errorRate: rate(errors, calls),
      p95Ms: ms(r?.p95 ?? null),
    };
  });
}

export function shapeDashboard(input: {
  windowMinutes: number;
  from: Date;
  now: Date;
  scope: TDashboard["scope"];
  minutes: MinuteRow[];
  tools: ToolRow[];
  approvals: { count: number; oldest: Date | null };
  servers: ServerRow[];
  showErrors: boolean;
  /** The slug of each version waiting for review (one entry per version). */
  reviews?: string[];
}): TDashboard {
  const total = input.minutes.find((r) => r.minute === null);
  const calls = Number(total?.calls ?? 0);
  const errors = Number(total?.errors ?? 0);
  const topTools: TDashboardTool[] = input.tools.map((t) => ({
    tool: t.tool,
    calls: Number(t.calls),
    errors: Number(t.errors),
    denials: Number(t.denials),
    p95Ms: ms(t.p95),
  }));
  const unhealthyServers: TUnhealthyServer[] = input.servers.flatMap((s) =>
    s.status === "CONNECTING" || s.status === "DEGRADED" || s.status === "DOWN"
      ? [
          {
            slug: s.slug,
            name: s.name,
            status: s.status,
            lastError: input.showErrors ? s.lastError : null,
            lastCheckedAt: s.lastCheckedAt ? new Date(s.lastCheckedAt).toISOString() : null,
          },
        ]
      : [],
  );
  return {
    windowMinutes: input.windowMinutes,
    from: input.from.toISOString(),
    generatedAt: input.now.toISOString(),
    scope: input.scope,
    totals: {
      calls,
      errors,
      denials: Number(total?.denials ?? 0),
      held: Number(total?.held ?? 0),
      errorRate: rate(errors, calls),
      p95Ms: ms(total?.p95 ?? null),
      callsPerMinute: Math.round((calls / input.windowMinutes) * 100) / 100,
    },
    series: fillSeries(input.minutes, input.from, input.windowMinutes),
    topTools,
    pendingApprovals: {
      count: input.approvals.count,
      oldestAt: input.approvals.oldest ? new Date(input.approvals.oldest).toISOString() : null,
    },
    unhealthyServers,
    pendingReviews: { count: input.reviews?.length ?? 0, servers: [...new Set(input.reviews ?? [])].sort() },
  };
}

export async function getDashboard(
  db: DbTx,
  viewer: DashboardViewer,
  q: TDashboardQuery,
  now = new Date(),
): Promise<TDashboard> {
  const scope = hasRole(viewer.role, "APPROVER") ? "all" : "mine";
  const userId = scope === "mine" ? viewer.userId : null;
  const from = windowStart(now, q.window);
  const [minutes, tools, approvals, servers, reviews] = await Promise.all([
    db.$queryRaw<MinuteRow[]>`
      SELECT date_trunc('minute', "occurredAt") AS minute, count(*) AS calls,
             count(*) FILTER (WHERE status IN ('error', 'interrupted')) AS errors,
             count(*) FILTER (WHERE status = 'denied') AS denials,
             count(*) FILTER (WHERE status = 'held') AS held,
             percentile_cont(0.95) WITHIN GROUP (ORDER BY "durationMs") AS p95
        FROM audit_events
       WHERE action = 'tool.called' AND "occurredAt" >= ${from}
         AND (${userId}::text IS NULL OR "userId" = ${userId}::text)
       GROUP BY GROUPING SETS ((date_trunc('minute', "occurredAt")), ())`,
    db.$queryRaw<ToolRow[]>`
      SELECT "toolName" AS tool, count(*) AS calls,
             count(*) FILTER (WHERE status IN ('error', 'interrupted')) AS errors,
             count(*) FILTER (WHERE status = 'denied') AS denials,
             percentile_cont(0.95) WITHIN GROUP (ORDER BY "durationMs") AS p95
        FROM audit_events
       WHERE action = 'tool.called' AND "occurredAt" >= ${from} AND "toolName" IS NOT NULL
         AND (${userId}::text IS NULL OR "userId" = ${userId}::text)
       GROUP BY "toolName"
       ORDER BY calls DESC, tool
       LIMIT ${TOP_TOOLS}`,
    db.approval.aggregate({
      where: { status: "PENDING", ...(userId && { requesterId: userId }) },
      _count: { _all: true },
      _min: { createdAt: true },
    }),
    db.upstreamServer.findMany({
      where: { enabled: true, status: { in: ["CONNECTING", "DEGRADED", "DOWN"] } },
      select: { slug: true, name: true, status: true, lastError: true, lastCheckedAt: true },
      orderBy: { slug: "asc" },
    }),
    db.serverVersion.findMany({ where: { review: "pending" }, select: { server: { select: { slug: true } } } }),
  ]);
  return shapeDashboard({
    windowMinutes: q.window,
    from,
    now,
    scope,
    minutes,
    tools,
    approvals: { count: approvals._count._all, oldest: approvals._min.createdAt },
    servers,
    showErrors: viewer.role === "ADMIN",
    reviews: reviews.map((r) => r.server.slug),
  });
}
