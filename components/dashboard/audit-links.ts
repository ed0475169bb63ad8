// Where a dashboard number leads: the audit search (its URL filters are the REST API's own parameters) over the
// same rows the number counts — tool calls, in that minute or window, of that status and tool.
import { filterQuery, type AuditFilterParams } from "@/components/audit/audit-api";

const MINUTE = 60_000;

/** The dashboard's series, by the audit status (and sort) that selects their rows. */
export type Series = "calls" | "errors" | "latency" | "denials" | "held";

const SERIES_FILTER: Record<Series, AuditFilterParams> = {
  calls: {},
  errors: { status: "error,interrupted" },
  latency: { sort: "-durationMs" },
  denials: { status: "denied" },
  held: { status: "held" },
};

/** The audit search over tool calls of `series` from `from` (ISO) to `to` (ISO, exclusive; open when absent). */
export function auditSearchHref(
  series: Series,
  range: { from: string; to?: string | undefined },
  tool?: string,
): string {
  return `/audit?${filterQuery({ action: "tool.called", ...SERIES_FILTER[series], ...(tool && { tool }), from: range.from, to: range.to })}`;
}

/** The audit search over one minute of the charts (a point's `at` is the minute's start). */
export function minuteHref(series: Series, at: string, tool?: string): string {
  return auditSearchHref(series, { from: at, to: new Date(Date.parse(at) + MINUTE).toISOString() }, tool);
}
