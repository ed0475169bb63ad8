// How the Approvals page names, times and explains requests: plain functions, shared by the queue, the
// history and the detail page (and unit-tested).
import { typeOf, type Schema } from "@/components/tools/json-schema";
import type { TApproval, TApprovalStatus } from "@/lib/approval-schemas";

export { APPROVAL_KIND_LABEL as KIND_LABEL, APPROVAL_STATUS_LABEL as STATUS_LABEL } from "@/lib/status-labels";

/** The statuses the History tab can filter by ("Approved" covers an approved call that has run, USED). */
export const HISTORY_FILTERS: readonly { id: string; label: string; statuses: readonly TApprovalStatus[] }[] = [
  { id: "", label: "Any decided", statuses: ["APPROVED", "USED", "REJECTED", "EXPIRED", "CANCELED"] },
  { id: "approved", label: "Approved", statuses: ["APPROVED", "USED"] },
  { id: "rejected", label: "Rejected", statuses: ["REJECTED"] },
  { id: "expired", label: "Expired", statuses: ["EXPIRED"] },
  { id: "withdrawn", label: "Withdrawn", statuses: ["CANCELED"] },
];

/** Standing approval choices on approve, in minutes (0 = off). */
export const STANDING_CHOICES: readonly { minutes: number; label: string }[] = [
  { minutes: 0, label: "Off" },
  { minutes: 15, label: "15 minutes" },
  { minutes: 60, label: "1 hour" },
  { minutes: 240, label: "4 hours" },
];

/** "12 s", "5 min", "2 h 03 min", "3 d 4 h": a compact span of time. */
export function formatSpan(ms: number): string {
  const s = Math.max(0, Math.floor(ms / 1000));
  if (s < 60) return `${s} s`;
  const m = Math.floor(s / 60);
  if (m < 60) return `${m} min`;
  const h = Math.floor(m / 60);
  if (h < 24) return `${h} h ${String(m % 60).padStart(2, "0")} min`;
  const d = Math.floor(h / 24);
  return h % 24 ? `${d} d ${h % 24} h` : `${d} d`;
}

/** How long a request has been waiting, as of `now`. */
export const ageOf = (a: Pick<TApproval, "createdAt">, now: number) =>
  formatSpan(now - new Date(a.createdAt).getTime());

/** "in 23 h 59 min", or "expired" once the time has passed. */
export function expiresIn(a: Pick<TApproval, "expiresAt">, now: number): string {
  const left = new Date(a.expiresAt).getTime() - now;
  return left <= 0 ? "expired" : `in ${formatSpan(left)}`;
}

/** "1 of 2" for a request that needs more than one approver; null when one is enough. */
export function approvalsCount(a: Pick<TApproval, "requiredApprovals" | "decisions">): string | null {
  if (a.requiredApprovals <= 1) return null;
  const yes = a.decisions.filter((d) => d.decision === "approve").length;
  return `${yes} of ${a.requiredApprovals}`;
}

/** A viewer of a request: their id and whether they approve (approvers and admins). */
export type Viewer = { userId: string; isApprover: boolean };

/** Why the viewer cannot decide this request now, or null when they can. */
export function blockedReason(
  a: Pick<TApproval, "status" | "requesterId" | "decisions" | "expiresAt" | "canDecide">,
  viewer: Viewer,
  now = Date.now(),
): string | null {
  if (a.status === "EXPIRED" || (a.status === "PENDING" && new Date(a.expiresAt).getTime() <= now))
    return "Expired: nobody decided in time";
  if (a.status === "CANCELED") return "Withdrawn";
  if (a.status !== "PENDING") return "Already decided";
  if (!viewer.isApprover) return "Only approvers decide requests";
  if (a.requesterId === viewer.userId) return "Your own request: another approver must decide it";
  if (a.decisions.some((d) => d.approverId === viewer.userId))
    return "You already approved; waiting for a second approver";
  return a.canDecide ? null : "Already decided";
}

/** Whether an approver may withdraw it: a standing approval or an unused advance grant that still holds. */
export const isRevocable = (a: Pick<TApproval, "kind" | "status">) =>
  a.status === "APPROVED" && (a.kind === "STANDING" || a.kind === "ADVANCE");

export type ArgumentRow = {
  name: string;
  /** The schema's type, or null for an argument the schema does not declare. */
  type: string | null;
  required: boolean;
  description: string | null;
  /** given: the agent sent it; default: not sent, the schema has a default; missing: not sent; extra: sent, not in the schema. */
  state: "given" | "default" | "missing" | "extra";
  value: unknown;
};

const isSchema = (v: unknown): v is Schema => typeof v === "object" && v !== null && !Array.isArray(v);

/** The arguments against the tool's input schema: one row per schema property, then arguments it does not declare. */
export function argumentRows(schema: Schema | null, args: Record<string, unknown>): ArgumentRow[] {
  const props = schema && isSchema(schema.properties) ? schema.properties : {};
  const required = new Set(
    schema && Array.isArray(schema.required) ? schema.required.filter((r): r is string => typeof r === "string") : [],
  );
  const rows: ArgumentRow[] = [];
  for (const [name, raw] of Object.entries(props)) {
    const p = isSchema(raw) ? raw : {};
    const given = Object.hasOwn(args, name);
    rows.push({
      name,
      type: typeOf(p),
      required: required.has(name),
      description: typeof p.description === "string" && p.description ? p.description : null,
      state: given ? "given" : "default" in p ? "default" : "missing",
      value: given ? args[name] : p.default,
    });
  }
  for (const [name, value] of Object.entries(args)) {
    if (!Object.hasOwn(props, name))
      rows.push({ name, type: null, required: false, description: null, state: "extra", value });
  }
  return rows;
}

/** A value as one readable line: strings as they are, everything else as JSON. */
export const showValue = (v: unknown) => (typeof v === "string" ? v : (JSON.stringify(v) ?? String(v)));

/** The start of a day (yyyy-mm-dd, the browser's time zone) as ISO 8601; `endOf` gives the next day's start. */
export function dayBound(day: string, endOf = false): string | undefined {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(day)) return undefined;
  const d = new Date(`${day}T00:00:00`);
  if (Number.isNaN(d.getTime())) return undefined;
  if (endOf) d.setDate(d.getDate() + 1);
  return d.toISOString();
}
