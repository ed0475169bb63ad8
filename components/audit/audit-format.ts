// How audit values read in the console: status and decision words with their badge tones, totals, durations,
// and the quick time ranges of the filter form.
import type { TAuditPage } from "@/lib/audit-schemas";
import { AUDIT_STATUS_LABEL, labelOf } from "@/lib/status-labels";

export type Tone = "slate" | "red" | "amber" | "indigo" | "emerald";

const STATUS_TONE: Record<string, Tone> = { ok: "emerald", error: "red", denied: "amber", held: "indigo" };

export { AUDIT_DECISION_LABEL as DECISION_LABEL } from "@/lib/status-labels";

export const statusOf = (s: string) => ({ label: labelOf(AUDIT_STATUS_LABEL, s), tone: STATUS_TONE[s] ?? "slate" });

/** "1 event", "2,345 events", "about 510,000 events" (an estimate above the exact-count limit). */
export function formatTotal(page: Pick<TAuditPage, "total" | "totalIsEstimate">): string {
  const n = page.total.toLocaleString("en-US");
  const noun = page.total === 1 ? "event" : "events";
  return page.totalIsEstimate ? `about ${n} ${noun}` : `${n} ${noun}`;
}

export function formatMs(ms: number | null): string {
  if (ms === null) return "—";
  if (ms < 1000) return `${ms} ms`;
  return `${(ms / 1000).toFixed(ms < 10_000 ? 2 : 1)} s`;
}

export const QUICK_RANGES = [
  { id: "1h", label: "Last hour", ms: 3_600_000 },
  { id: "24h", label: "Last 24 hours", ms: 86_400_000 },
  { id: "7d", label: "Last 7 days", ms: 7 * 86_400_000 },
  { id: "30d", label: "Last 30 days", ms: 30 * 86_400_000 },
] as const;

/** An ISO instant as the value of a `datetime-local` input, in the browser's time zone ("" for none). */
export function toLocalInput(iso: string | undefined): string {
  if (!iso) return "";
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return "";
  const pad = (n: number) => String(n).padStart(2, "0");
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}`;
}

/** A `datetime-local` value (browser time zone) as an ISO instant with offset, or undefined. */
export function fromLocalInput(v: string): string | undefined {
  if (!v) return undefined;
  const d = new Date(v);
  return Number.isNaN(d.getTime()) ? undefined : d.toISOString();
}
