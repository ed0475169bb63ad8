// Contract of the console dashboard (GET /api/v1/dashboard): tool-call traffic over a recent window, computed
// from the audit log, plus what needs attention now (pending approvals, unhealthy upstream servers).
import { z } from "zod";

export const DASHBOARD_WINDOWS = [15, 60, 360, 1440] as const;

export const ZDashboardQuery = z.object({
  window: z.coerce
    .number()
    .int()
    .min(5)
    .max(1440)
    .default(60)
    .meta({ description: "Minutes back from now (5–1440, default 60)" }),
});
export type TDashboardQuery = z.infer<typeof ZDashboardQuery>;

export const ZDashboardPoint = z
  .object({
    /** Start of the minute (ISO 8601, UTC). */
    at: z.string(),
    calls: z.number().int(),
    errors: z.number().int(),
    denials: z.number().int(),
    /** Calls held for an approver in that minute (not denials). */
    held: z.number().int(),
    /** errors / calls in that minute; null without calls. */
    errorRate: z.number().nullable(),
    p95Ms: z.number().nullable(),
  })
  .meta({ id: "DashboardPoint" });
export type TDashboardPoint = z.infer<typeof ZDashboardPoint>;

export const ZDashboardTool = z
  .object({
    tool: z.string().meta({ description: "Gateway tool name <server>__<tool>" }),
    calls: z.number().int(),
    errors: z.number().int(),
    denials: z.number().int(),
    p95Ms: z.number().nullable(),
  })
  .meta({ id: "DashboardTool" });
export type TDashboardTool = z.infer<typeof ZDashboardTool>;

export const ZUnhealthyServer = z
  .object({
    slug: z.string(),
    name: z.string(),
    status: z.enum(["CONNECTING", "DEGRADED", "DOWN"]),
    /** Only for admins. */
    lastError: z.string().nullable(),
    lastCheckedAt: z.string().nullable(),
  })
  .meta({ id: "UnhealthyServer" });
export type TUnhealthyServer = z.infer<typeof ZUnhealthyServer>;

export const ZDashboard = z
  .object({
    windowMinutes: z.number().int(),
    from: z.string(),
    generatedAt: z.string(),
    /** "all": every caller's calls (approvers and admins); "mine": the caller's own (users). */
    scope: z.enum(["all", "mine"]),
    totals: z.object({
      calls: z.number().int(),
      errors: z.number().int(),
      denials: z.number().int(),
      /** Calls held for an approver. */
      held: z.number().int(),
      errorRate: z.number().nullable().meta({ description: "errors / calls over the window; null without calls" }),
      p95Ms: z.number().nullable(),
      callsPerMinute: z.number(),
    }),
    /** One point per minute of the window, oldest first, minutes without calls included. */
    series: z.array(ZDashboardPoint),
    /** The most called tools of the window (up to 10). */
    topTools: z.array(ZDashboardTool),
    pendingApprovals: z.object({ count: z.number().int(), oldestAt: z.string().nullable() }),
    /** Enabled servers that are not HEALTHY. */
    unhealthyServers: z.array(ZUnhealthyServer),
    /** Definitions waiting for an admin's review (pinned tool definitions), and the servers they belong to. */
    pendingReviews: z.object({ count: z.number().int(), servers: z.array(z.string()) }),
  })
  .meta({ id: "Dashboard" });
export type TDashboard = z.infer<typeof ZDashboard>;
