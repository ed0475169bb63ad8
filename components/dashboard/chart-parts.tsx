"use client";
// What every dashboard chart shares: axis ticks and grid in the palette's own colours (so dark mode turns them
// over with the rest of the console, app/globals.css), a tooltip with each series' value, and a legend that
// names the series.
import type { TooltipPayloadEntry } from "recharts";
import { formatMinute } from "./dashboard-format";

/** Series colours: mid tones that read on the light and the dark surface alike. */
export const SERIES_COLOR = {
  calls: "#6366f1",
  errors: "#dc2626",
  latency: "#0891b2",
  denials: "#d97706",
  held: "#0284c7",
} as const;

export const GRID = { strokeDasharray: "3 3", stroke: "var(--color-slate-200)" } as const;
export const TICK = { fontSize: 11, fill: "var(--color-slate-500)" } as const;

/** The minutes along the bottom: hours and minutes, spaced so they never overlap (a phone shows fewer). */
export const MINUTE_AXIS = {
  dataKey: "at",
  tickFormatter: formatMinute,
  minTickGap: 36,
  interval: "preserveStartEnd",
  tick: TICK,
  tickLine: false,
  stroke: "var(--color-slate-300)",
} as const;

/** Counts on the left axis: whole numbers, thousands shortened (1.2k) so the axis stays narrow. */
export const COUNT_AXIS = {
  allowDecimals: false,
  tick: TICK,
  width: 36,
  tickFormatter: compactCount,
  stroke: "var(--color-slate-300)",
} as const;

export function compactCount(n: number): string {
  return n >= 1000 ? `${(n / 1000).toFixed(n >= 10_000 ? 0 : 1)}k` : String(n);
}

/** A legend entry's text in the palette's text colour (recharts would paint it in the series colour). */
export const legendText = (value: string) => <span className="text-xs text-slate-700">{value}</span>;
/** Series in the order they are drawn (recharts would sort them by name). */
export const LEGEND = {
  verticalAlign: "top",
  align: "right",
  height: 24,
  iconSize: 10,
  formatter: legendText,
  itemSorter: null,
} as const;

/**
 * The tooltip: the minute (or tool) and each series' value, formatted; `clickable` says where a click leads.
 * `data-at` and `data-value` let a test find the point it hovers.
 */
export function ChartTooltip({
  active,
  payload,
  label,
  format = String,
  clickable,
  labelIsMinute = true,
}: {
  active?: boolean | undefined;
  payload?: readonly TooltipPayloadEntry[] | undefined;
  label?: string | number | undefined;
  format?: ((v: number) => string) | undefined;
  clickable: boolean;
  labelIsMinute?: boolean;
}) {
  if (!active || !payload?.length) return null;
  const at = typeof label === "string" ? label : String(label ?? "");
  return (
    <div
      data-testid="chart-tooltip"
      data-at={at}
      className="rounded-md bg-white px-3 py-2 text-xs shadow-lg ring-1 ring-slate-200"
    >
      <p className="font-medium text-slate-900">{labelIsMinute ? formatMinute(at) : at}</p>
      <ul className="mt-1 space-y-0.5">
        {payload.map((p) => (
          <li
            key={String(p.dataKey)}
            className="flex items-center gap-2 text-slate-700"
            data-series={String(p.dataKey)}
            data-value={p.value ?? ""}
          >
            <span
              aria-hidden="true"
              className="inline-block h-2 w-2 rounded-full"
              style={{ backgroundColor: p.color }}
            />
            {p.name}:{" "}
            <span className="font-semibold text-slate-900 tabular-nums">
              {p.value === null || p.value === undefined ? "–" : format(Number(p.value))}
            </span>
          </li>
        ))}
      </ul>
      {clickable && <p className="mt-1 text-slate-500">Click to open these calls in the audit log</p>}
    </div>
  );
}
