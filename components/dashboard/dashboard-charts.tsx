"use client";
// The dashboard's charts: calls, error rate, p95 latency and denials per minute, and the top tools. Each names
// its series in a legend and shows the values under the pointer; for admins (who may search the audit log) a
// click on a point or bar opens the audit search over that minute and series, and each chart's title links to
// the whole window.
import Link from "next/link";
import { useRouter } from "next/navigation";
import {
  Bar,
  BarChart,
  CartesianGrid,
  Legend,
  Line,
  LineChart,
  ResponsiveContainer,
  Tooltip,
  XAxis,
  YAxis,
  type MouseHandlerDataParam,
} from "recharts";
import { card } from "@/components/ui";
import type { TDashboard, TDashboardPoint, TDashboardTool } from "@/lib/dashboard-schemas";
import { auditSearchHref, minuteHref, type Series } from "./audit-links";
import { ChartTooltip, COUNT_AXIS, GRID, LEGEND, MINUTE_AXIS, SERIES_COLOR, TICK } from "./chart-parts";
import { formatMs } from "./dashboard-format";

/** A series line: smooth, drawn at once on each refresh, with a dot under the pointer. */
const LINE = { type: "monotone", strokeWidth: 2, dot: false, activeDot: { r: 4 }, isAnimationActive: false } as const;
const MARGIN = { top: 4, right: 12, bottom: 0, left: 0 };

/** The point under the pointer when a chart was clicked (recharts gives its index). */
function pointAt<T>(points: readonly T[], state: MouseHandlerDataParam): T | undefined {
  const i = Number(state.activeIndex ?? state.activeTooltipIndex);
  return Number.isInteger(i) ? points[i] : undefined;
}

export function DashboardCharts({ d, linked }: { d: TDashboard; linked: boolean }) {
  const router = useRouter();
  const t = d.totals;
  const range = { from: d.from };
  /** A click on a line chart: the minute under the pointer, for that chart's series. */
  const open = (series: Series) =>
    linked
      ? (state: MouseHandlerDataParam) => {
          const p = pointAt(d.series, state);
          if (p) router.push(minuteHref(series, p.at));
        }
      : undefined;
  /** A click on a bar: its minute (or tool) and the bar's own series. */
  const openBar = (series: Series) =>
    linked
      ? (item: { payload?: TDashboardPoint }) => item.payload && router.push(minuteHref(series, item.payload.at))
      : undefined;
  const openTool = (series: Series) =>
    linked
      ? (item: { payload?: TDashboardTool }) =>
          item.payload && router.push(auditSearchHref(series, range, item.payload.tool))
      : undefined;
  const tip = (format?: (v: number) => string) => (
    <Tooltip
      content={(p) => (
        <ChartTooltip active={p.active} payload={p.payload} label={p.label} format={format} clickable={linked} />
      )}
    />
  );
  const withPct = d.series.map((p) => ({ ...p, errorPct: p.errorRate === null ? null : p.errorRate * 100 }));

  return (
    <div className="mt-4 grid gap-4 md:grid-cols-2">
      <ChartCard
        testId="chart-calls"
        title="Calls per minute"
        points={d.series}
        total={t.calls}
        href={linked ? auditSearchHref("calls", range) : undefined}
        linked={linked}
      >
        <LineChart data={d.series} margin={MARGIN} onClick={open("calls")}>
          <CartesianGrid {...GRID} />
          <XAxis {...MINUTE_AXIS} />
          <YAxis {...COUNT_AXIS} />
          {tip()}
          <Legend {...LEGEND} />
          <Line {...LINE} dataKey="calls" name="Calls" stroke={SERIES_COLOR.calls} />
        </LineChart>
      </ChartCard>
      <ChartCard
        testId="chart-error-rate"
        title="Error rate"
        points={d.series}
        total={t.errors}
        href={linked ? auditSearchHref("errors", range) : undefined}
        linked={linked}
      >
        <LineChart data={withPct} margin={MARGIN} onClick={open("errors")}>
          <CartesianGrid {...GRID} />
          <XAxis {...MINUTE_AXIS} />
          <YAxis
            domain={[0, 100]}
            ticks={[0, 50, 100]}
            tickFormatter={(v: number) => `${String(v)}%`}
            tick={TICK}
            width={40}
            stroke="var(--color-slate-300)"
          />
          {tip((v) => `${v.toFixed(1)}%`)}
          <Legend {...LEGEND} />
          <Line {...LINE} dataKey="errorPct" name="Failed calls" stroke={SERIES_COLOR.errors} connectNulls />
        </LineChart>
      </ChartCard>
      <ChartCard
        testId="chart-p95"
        title="p95 latency"
        points={d.series}
        total={t.p95Ms ?? 0}
        href={linked ? auditSearchHref("latency", range) : undefined}
        linked={linked}
      >
        <LineChart data={d.series} margin={MARGIN} onClick={open("latency")}>
          <CartesianGrid {...GRID} />
          <XAxis {...MINUTE_AXIS} />
          <YAxis tick={TICK} width={48} tickFormatter={(v: number) => formatMs(v)} stroke="var(--color-slate-300)" />
          {tip(formatMs)}
          <Legend {...LEGEND} />
          <Line {...LINE} dataKey="p95Ms" name="p95 latency" stroke={SERIES_COLOR.latency} connectNulls />
        </LineChart>
      </ChartCard>
      <ChartCard
        testId="chart-denials"
        title="Denials per minute"
        points={d.series}
        total={t.denials}
        href={linked ? auditSearchHref("denials", range) : undefined}
        linked={linked}
      >
        <BarChart data={d.series} margin={MARGIN}>
          <CartesianGrid {...GRID} vertical={false} />
          <XAxis {...MINUTE_AXIS} />
          <YAxis {...COUNT_AXIS} />
          {tip()}
          <Legend {...LEGEND} />
          {/* Held calls wait for an approver: shown beside the denials, never counted as one. */}
          <Bar
            dataKey="denials"
            name="Denials"
            stackId="refused"
            fill={SERIES_COLOR.denials}
            isAnimationActive={false}
            onClick={openBar("denials")}
          />
          <Bar
            dataKey="held"
            name="Held for approval"
            stackId="refused"
            fill={SERIES_COLOR.held}
            isAnimationActive={false}
            onClick={openBar("held")}
          />
        </BarChart>
      </ChartCard>
      <TopTools d={d} linked={linked} openTool={openTool} />
    </div>
  );
}

/** The top-tools chart's bars: each a series of the tool's row, opening the audit search over it. */
const TOOL_BARS = [
  ["calls", "Calls"],
  ["errors", "Errors"],
  ["denials", "Denials"],
] as const satisfies ReadonlyArray<readonly [Series, string]>;

function TopTools({
  d,
  linked,
  openTool,
}: {
  d: TDashboard;
  linked: boolean;
  openTool: (series: Series) => ((item: { payload?: TDashboardTool }) => void) | undefined;
}) {
  return (
    <div
      className={`${card} p-4 md:col-span-2`}
      data-testid="chart-top-tools"
      data-tools={d.topTools.map((x) => x.tool).join(",")}
    >
      <h3 className="text-sm font-semibold text-slate-900">Top tools</h3>
      {d.topTools.length === 0 ? (
        <p className="py-8 text-center text-sm text-slate-500">No tool calls in this window.</p>
      ) : (
        <>
          <div
            className={`mt-2 ${linked ? "[&_.recharts-rectangle]:cursor-pointer" : ""}`}
            style={{ height: Math.max(140, d.topTools.length * 32 + 48) }}
            aria-hidden="true"
          >
            <ResponsiveContainer width="100%" height="100%">
              <BarChart data={d.topTools} layout="vertical" margin={{ top: 0, right: 12, bottom: 0, left: 0 }}>
                <CartesianGrid {...GRID} horizontal={false} />
                <XAxis type="number" allowDecimals={false} tick={TICK} stroke="var(--color-slate-300)" />
                <YAxis
                  type="category"
                  dataKey="tool"
                  width={120}
                  tick={TICK}
                  tickFormatter={(v: string) => (v.length > 18 ? `${v.slice(0, 17)}…` : v)}
                  stroke="var(--color-slate-300)"
                />
                <Tooltip
                  content={(p) => (
                    <ChartTooltip
                      active={p.active}
                      payload={p.payload}
                      label={p.label}
                      clickable={linked}
                      labelIsMinute={false}
                    />
                  )}
                  cursor={{ fill: "var(--color-slate-100)" }}
                />
                <Legend {...LEGEND} />
                {TOOL_BARS.map(([series, name]) => (
                  <Bar
                    key={series}
                    dataKey={series}
                    name={name}
                    fill={SERIES_COLOR[series]}
                    isAnimationActive={false}
                    onClick={openTool(series)}
                  />
                ))}
              </BarChart>
            </ResponsiveContainer>
          </div>
          {/* A table ignores a 1 px width: the wrapper keeps it from widening the page. */}
          <div className="sr-only">
            <table>
              <caption>Top tools by calls</caption>
              <thead>
                <tr>
                  <th>Tool</th>
                  <th>Calls</th>
                  <th>Errors</th>
                  <th>Denials</th>
                  <th>p95</th>
                </tr>
              </thead>
              <tbody>
                {d.topTools.map((x) => (
                  <tr key={x.tool} data-testid="top-tool" data-tool={x.tool} data-calls={x.calls}>
                    <td>
                      {linked ? (
                        <Link href={auditSearchHref("calls", { from: d.from }, x.tool)}>{x.tool}</Link>
                      ) : (
                        x.tool
                      )}
                    </td>
                    <td>{x.calls}</td>
                    <td>{x.errors}</td>
                    <td>{x.denials}</td>
                    <td>{formatMs(x.p95Ms)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </>
      )}
    </div>
  );
}

function ChartCard({
  testId,
  title,
  points,
  total,
  href,
  linked,
  children,
}: {
  testId: string;
  title: string;
  points: TDashboardPoint[];
  total: number;
  href: string | undefined;
  linked: boolean;
  children: React.ReactElement;
}) {
  return (
    <figure className={`${card} min-w-0 p-4`} data-testid={testId} data-points={points.length} data-total={total}>
      <figcaption className="flex items-baseline justify-between gap-2 text-sm font-semibold text-slate-900">
        {title}
        {href && (
          <Link
            href={href}
            className="text-xs font-medium text-indigo-700 hover:underline"
            data-testid={`${testId}-audit`}
          >
            In the audit log<span className="sr-only">: {title.toLowerCase()} of this window</span>
          </Link>
        )}
      </figcaption>
      <div className={`mt-2 h-48 ${linked ? "cursor-pointer" : ""}`} aria-hidden="true">
        <ResponsiveContainer width="100%" height="100%">
          {children}
        </ResponsiveContainer>
      </div>
    </figure>
  );
}
