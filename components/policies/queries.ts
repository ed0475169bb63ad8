// REST calls and react-query keys for the Policies page. Every key nests under ["policy"], so one
// invalidation after a change refreshes the tools, rules, grants, history and effective grants together.
import { apiFetch } from "@/components/api-client";
import type { Page } from "@/lib/pagination";
import type {
  TAgentSession,
  TBulkTier,
  TCreateGrant,
  TCreateRule,
  TDecision,
  TEffectiveGrant,
  TGrant,
  TPolicyChange,
  TPolicyTool,
  TRule,
  TSimulateRequest,
} from "@/lib/policy-schemas";
import type { TToolSummary, TUser } from "@/lib/schemas";

export type TTier = TPolicyTool["riskTier"];
/** Tier names for the compact selects, whose label already says "tier". */
export const TIER_SHORT: Record<TTier, string> = { LOW: "Low", MEDIUM: "Medium", HIGH: "High" };

export const policyKey = ["policy"] as const;
export const policyToolsKey = ["policy", "tools"] as const;
export const rulesKey = (tool: string) => ["policy", "rules", tool] as const;
export const grantsKey = ["policy", "grants"] as const;
export const effectiveGrantKey = (userId: string) => ["policy", "effective-grant", userId] as const;
export const historyKey = ["policy", "history"] as const;
/** Under ["tools"], so a change on the tools pages refreshes it too. */
export const toolDetailKey = (name: string) => ["tools", "detail", name] as const;
/** Not under ["policy"]: the user list changes with the Users page, not with policy changes. */
export const policyUsersKey = ["users", "policy-picker"] as const;

const toolPath = (name: string) => `/api/v1/tools/${encodeURIComponent(name)}`;

export const listPolicyTools = (signal?: AbortSignal) =>
  apiFetch<{ items: TPolicyTool[] }>("/api/v1/policy/tools", { signal });
export const setTiers = (body: TBulkTier) =>
  apiFetch<{ items: TPolicyTool[] }>("/api/v1/policy/tiers", { method: "POST", body });
export const setTier = (name: string, riskTier: TTier) =>
  apiFetch<unknown>(toolPath(name), { method: "PATCH", body: { riskTier } });

export const getTool = (name: string, signal?: AbortSignal) => apiFetch<TToolSummary>(toolPath(name), { signal });

export const listRules = (tool: string, signal?: AbortSignal) =>
  apiFetch<{ items: TRule[] }>(`${toolPath(tool)}/rules`, { signal });
export const createRule = (tool: string, body: TCreateRule) =>
  apiFetch<TRule>(`${toolPath(tool)}/rules`, { method: "POST", body });
export const deleteRule = (tool: string, id: string) =>
  apiFetch<TRule>(`${toolPath(tool)}/rules/${encodeURIComponent(id)}`, { method: "DELETE" });

export const listGrants = (signal?: AbortSignal) => apiFetch<{ items: TGrant[] }>("/api/v1/grants", { signal });
export const createGrant = (body: TCreateGrant) => apiFetch<TGrant>("/api/v1/grants", { method: "POST", body });
export const deleteGrant = (id: string) =>
  apiFetch<TGrant>(`/api/v1/grants/${encodeURIComponent(id)}`, { method: "DELETE" });
export const getEffectiveGrant = (userId: string, signal?: AbortSignal) =>
  apiFetch<TEffectiveGrant>(`/api/v1/users/${encodeURIComponent(userId)}/grant`, { signal });

/** The first 200 users (the API's largest page): enough for a picker; a bigger team would need search. */
export const listUsersForPicker = (signal?: AbortSignal) =>
  apiFetch<Page<TUser>>("/api/v1/users?limit=200", { signal });

/** Under ["sessions"], so creating or revoking a session on the Agents page refreshes it. */
export const sessionsPickerKey = ["sessions", "policy-picker"] as const;
export const listAllSessions = (signal?: AbortSignal) =>
  apiFetch<{ items: TAgentSession[] }>("/api/v1/sessions?all=1", { signal });

export const listHistory = (cursor: string | undefined, signal?: AbortSignal) =>
  apiFetch<Page<TPolicyChange>>(`/api/v1/policy/history${cursor ? `?cursor=${encodeURIComponent(cursor)}` : ""}`, {
    signal,
  });
export const revertChange = (id: string) =>
  apiFetch<TPolicyChange>(`/api/v1/policy/history/${encodeURIComponent(id)}/revert`, { method: "POST" });

export const simulate = (body: TSimulateRequest) =>
  apiFetch<TDecision>("/api/v1/policy/simulate", { method: "POST", body });
