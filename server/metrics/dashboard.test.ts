import { describe, expect, it } from "vitest";
import { fillSeries, shapeDashboard, windowStart, type MinuteRow } from "./dashboard";

const now = new Date("2026-05-04T10:17:42.500Z");
const from = windowStart(now, 5);
const minute = (iso: string) => new Date(iso);

describe("windowStart", () => {
  it("starts the window whole minutes back, the current minute being its last", () => {
    expect(from.toISOString()).toBe("2026-05-04T10:13:00.000Z");
    expect(windowStart(now, 1).toISOString()).toBe("2026-05-04T10:17:00.000Z");
  });
});

describe("fillSeries", () => {
  it("has one point per minute, zeros where there were no calls, and rates only where there were", () => {
    const rows: MinuteRow[] = [
      { minute: minute("2026-05-04T10:14:00Z"), calls: 4n, errors: 1n, denials: 2n, held: 0n, p95: 12.6 },
      { minute: minute("2026-05-04T10:17:00Z"), calls: 1n, errors: 0n, denials: 0n, held: 1n, p95: 3 },
      { minute: null, calls: 5n, errors: 1n, denials: 2n, held: 1n, p95: 12 },
    ];
    expect(fillSeries(rows, from, 5)).toEqual([
      { at: "2026-05-04T10:13:00.000Z", calls: 0, errors: 0, denials: 0, held: 0, errorRate: null, p95Ms: null },
      { at: "2026-05-04T10:14:00.000Z", calls: 4, errors: 1, denials: 2, held: 0, errorRate: 0.25, p95Ms: 13 },
      { at: "2026-05-04T10:15:00.000Z", calls: 0, errors: 0, denials: 0, held: 0, errorRate: null, p95Ms: null },
      { at: "2026-05-04T10:16:00.000Z", calls: 0, errors: 0, denials: 0, held: 0, errorRate: null, p95Ms: null },
      { at: "2026-05-04T10:17:00.000Z", calls: 1, errors: 0, denials: 0, held: 1, errorRate: 0, p95Ms: 3 },
    ]);
  });

  it("ignores rows outside the window", () => {
    const rows: MinuteRow[] = [
      { minute: minute("2026-05-04T10:00:00Z"), calls: 9, errors: 9, denials: 0, held: 0, p95: 1 },
    ];
    expect(fillSeries(rows, from, 5).every((p) => p.calls === 0)).toBe(true);
  });
});

describe("shapeDashboard", () => {
  const base = {
    windowMinutes: 5,
    from,
    now,
    scope: "all" as const,
    minutes: [] as MinuteRow[],
    tools: [],
    approvals: { count: 0, oldest: null },
    servers: [],
    showErrors: true,
  };

  it("takes the totals from the empty grouping set, not from summing minutes", () => {
    const d = shapeDashboard({
      ...base,
      minutes: [
        { minute: minute("2026-05-04T10:14:00Z"), calls: 3n, errors: 1n, denials: 1n, held: 0n, p95: 50 },
        { minute: null, calls: 3n, errors: 1n, denials: 1n, held: 1n, p95: 48.4 },
      ],
    });
    expect(d.totals).toEqual({
      calls: 3,
      errors: 1,
      denials: 1,
      held: 1,
      errorRate: 1 / 3,
      p95Ms: 48,
      callsPerMinute: 0.6,
    });
    expect(d).toMatchObject({
      windowMinutes: 5,
      from: "2026-05-04T10:13:00.000Z",
      generatedAt: now.toISOString(),
      scope: "all",
    });
  });

  it("has no rate or latency without calls", () => {
    expect(shapeDashboard(base).totals).toEqual({
      calls: 0,
      errors: 0,
      denials: 0,
      held: 0,
      errorRate: null,
      p95Ms: null,
      callsPerMinute: 0,
    });
  });

  it("lists unhealthy servers only, and their errors only when asked to", () => {
    const servers = [
      { slug: "a", name: "A", status: "HEALTHY", lastError: null, lastCheckedAt: null },
      {
        slug: "b",
        name: "B",
        status: "DOWN",
        lastError: "spawn ENOENT",
        lastCheckedAt: minute("2026-05-04T10:17:00Z"),
      },
      { slug: "c", name: "C", status: "DEGRADED", lastError: null, lastCheckedAt: null },
    ];
    expect(shapeDashboard({ ...base, servers }).unhealthyServers).toEqual([
      { slug: "b", name: "B", status: "DOWN", lastError: "spawn ENOENT", lastCheckedAt: "2026-05-04T10:17:00.000Z" },
      { slug: "c", name: "C", status: "DEGRADED", lastError: null, lastCheckedAt: null },
    ]);
    expect(shapeDashboard({ ...base, servers, showErrors: false }).unhealthyServers[0]!.lastError).toBeNull();
  });

  it("shapes top tools and pending approvals", () => {
    const d = shapeDashboard({
      ...base,
      tools: [{ tool: "orders__export", calls: 7n, errors: 2n, denials: 0n, p95: 120.5 }],
      approvals: { count: 2, oldest: minute("2026-05-04T09:00:00Z") },
    });
    expect(d.topTools).toEqual([{ tool: "orders__export", calls: 7, errors: 2, denials: 0, p95Ms: 121 }]);
    expect(d.pendingApprovals).toEqual({ count: 2, oldestAt: "2026-05-04T09:00:00.000Z" });
  });
});
