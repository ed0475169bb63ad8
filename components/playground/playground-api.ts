// REST calls, react-query keys and links of the code playground. "Whose permissions" is an agent session id,
// or null for the signed-in person's own grants (the API's own convention).
import { apiFetch } from "@/components/api-client";
import type { TAuditPage } from "@/lib/audit-schemas";
import type { TCodeRun, TCodeRunResult, TCodeTypes } from "@/lib/codemode-schemas";

export const codeTypesKey = (agentSessionId: string | null) => ["codemode", "types", agentSessionId ?? "me"] as const;

export function getCodeTypes(agentSessionId: string | null, signal?: AbortSignal) {
  const qs = agentSessionId ? `?agentSessionId=${encodeURIComponent(agentSessionId)}` : "";
  return apiFetch<TCodeTypes>(`/api/v1/codemode/types${qs}`, { signal });
}

export const runCode = (body: TCodeRun) => apiFetch<TCodeRunResult>("/api/v1/codemode/run", { method: "POST", body });

/** The audit event a console run is recorded as: the `execute_code` call of the built-in `portcullis` server. */
const RUN_EVENT = { tool: "execute_code", server: "portcullis" } as const;

/** The audit list of console runs since `since` (a fallback when the run's own event is not found). */
export function runsAuditHref(since: string): string {
  return `/audit?${new URLSearchParams({ ...RUN_EVENT, from: since }).toString()}`;
}

/**
 * The id of the audit event of the run `requestId` (its page tells the story of the run and each of its
 * calls), looked up among the newest console runs since `since`; null when it is not among them.
 */
export async function findRunAuditEvent(requestId: string, since: string, signal?: AbortSignal): Promise<string | null> {
  const qs = new URLSearchParams({ ...RUN_EVENT, from: since, limit: "50" });
  const page = await apiFetch<TAuditPage>(`/api/v1/audit?${qs.toString()}`, { signal });
  return page.items.find((e) => e.requestId === requestId)?.id ?? null;
}

export const approvalHref = (id: string) => `/approvals/${encodeURIComponent(id)}`;
export const auditEventHref = (id: string) => `/audit/${encodeURIComponent(id)}`;
