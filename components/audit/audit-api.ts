// REST calls, react-query keys and URL helpers of the audit pages. The filter lives in the page's URL as the
// API's own query parameters, so the list, the export links and a shared link all read the same string.
import { apiFetch } from "@/components/api-client";
import { AUDIT_FILTER_KEYS, type TAuditEventDetail, type TAuditPage } from "@/lib/audit-schemas";

export type AuditFilterParams = Partial<Record<(typeof AUDIT_FILTER_KEYS)[number], string>>;

/** The filter keys of a URL's query, without empty values (and without anything else). */
export function filterFromSearch(search: URLSearchParams): AuditFilterParams {
  const out: AuditFilterParams = {};
  for (const k of AUDIT_FILTER_KEYS) {
    const v = search.get(k)?.trim();
    if (v) out[k] = v;
  }
  return out;
}

/** How many filters the URL sets (the sort order is not one). */
export function activeFilterCount(f: AuditFilterParams): number {
  return Object.entries(f).filter(([k, v]) => k !== "sort" && v).length;
}

export function filterQuery(f: AuditFilterParams, extra: Record<string, string | undefined> = {}): string {
  const params = new URLSearchParams();
  for (const k of AUDIT_FILTER_KEYS) if (f[k]) params.set(k, f[k]);
  for (const [k, v] of Object.entries(extra)) if (v) params.set(k, v);
  return params.toString();
}

export const auditListKey = (f: AuditFilterParams, cursor: string | undefined) => ["audit", "list", filterQuery(f), cursor ?? null] as const;
export const auditEventKey = (id: string) => ["audit", "event", id] as const;
export const auditHref = (id: string) => `/audit/${encodeURIComponent(id)}`;
export const exportHref = (f: AuditFilterParams, format: "csv" | "jsonl") => `/api/v1/audit/export?${filterQuery(f, { format })}`;

export function searchAudit(f: AuditFilterParams, cursor: string | undefined, signal?: AbortSignal) {
  return apiFetch<TAuditPage>(`/api/v1/audit?${filterQuery(f, { cursor, limit: "50" })}`, { signal });
}

export const getAuditEvent = (id: string, signal?: AbortSignal) => apiFetch<TAuditEventDetail>(`/api/v1/audit/${encodeURIComponent(id)}`, { signal });
