// REST calls and react-query keys for servers and tools. Keys nest under ["servers"] so one invalidation
// refreshes the list, a server page and its versions together.
import type { QueryClient } from "@tanstack/react-query";
import type { z } from "zod";
import { apiFetch } from "@/components/api-client";
import type { TApproveDefinitions, TDefinitionReview, TRejectDefinitions } from "@/lib/review-schemas";
import type { TServerLogs } from "@/lib/server-logs-schemas";
import type {
  TCreateServer,
  TPackageLatest,
  TPackageUpgrade,
  TPackageUpgraded,
  TServer,
  TServerOfferings,
  TServerWithTools,
  TToolSummary,
  TUpdateServer,
  TUpdateTool,
  ZToolCallResult,
} from "@/lib/schemas";

export type { TServerWithTools };
export type TToolCallResult = z.infer<typeof ZToolCallResult>;
export type TNearDuplicate = { a: string; b: string; score: number; reason: string };

export type TDefinitionChange = { name: string; fields: string[]; breaking: boolean; reasons: string[] };
export type TSectionDiff = { added: string[]; removed: string[]; changed: TDefinitionChange[] };
export type TDefinitionsDiff = {
  server: { fields: string[] };
  tools: TSectionDiff;
  resources: TSectionDiff;
  resourceTemplates: TSectionDiff;
  prompts: TSectionDiff;
  breaking: boolean;
  empty: boolean;
};
export type TServerVersion = {
  id: string;
  version: string;
  contentHash: string;
  diff: TDefinitionsDiff | null;
  createdAt: string;
  active: boolean;
  canary: boolean;
};

export const serversKey = ["servers"] as const;
export const serverKey = (slug: string) => ["servers", slug] as const;
export const versionsKey = (slug: string) => ["servers", slug, "versions"] as const;
export const toolsKey = ["tools"] as const;
export const reviewsKey = (slug: string) => ["servers", slug, "reviews"] as const;

const serverPath = (slug: string) => `/api/v1/servers/${encodeURIComponent(slug)}`;
const toolPath = (name: string) => `/api/v1/tools/${encodeURIComponent(name)}`;

export const listReviews = (slug: string, signal?: AbortSignal) =>
  apiFetch<{ items: TDefinitionReview[] }>(`${serverPath(slug)}/reviews`, { signal });
export const decideReview = (slug: string, id: string, decision: "approve", body: TApproveDefinitions) =>
  apiFetch<TDefinitionReview>(`${serverPath(slug)}/reviews/${encodeURIComponent(id)}/${decision}`, { method: "POST", body });
export const rejectReview = (slug: string, id: string, body: TRejectDefinitions) =>
  apiFetch<TDefinitionReview>(`${serverPath(slug)}/reviews/${encodeURIComponent(id)}/reject`, { method: "POST", body });
export const listServers = (signal?: AbortSignal) => apiFetch<{ items: TServer[] }>("/api/v1/servers", { signal });
export const getServer = (slug: string, signal?: AbortSignal) =>
  apiFetch<TServerWithTools>(serverPath(slug), { signal });
export const createServer = (body: TCreateServer) =>
  apiFetch<TServerWithTools>("/api/v1/servers", { method: "POST", body });
export const updateServer = (slug: string, body: TUpdateServer) =>
  apiFetch<TServerWithTools>(serverPath(slug), { method: "PATCH", body });
export const removeServer = (slug: string) => apiFetch<TServer>(serverPath(slug), { method: "DELETE" });
export const offeringsKey = (slug: string) => ["servers", slug, "offerings"] as const;
export const getOfferings = (slug: string, signal?: AbortSignal) =>
  apiFetch<TServerOfferings>(`${serverPath(slug)}/offerings`, { signal });
export const listVersions = (slug: string, signal?: AbortSignal) =>
  apiFetch<{ items: TServerVersion[] }>(`${serverPath(slug)}/versions`, { signal });

export const listTools = (signal?: AbortSignal) =>
  apiFetch<{ items: TToolSummary[]; nearDuplicates: TNearDuplicate[] }>("/api/v1/tools", { signal });
export const updateTool = (name: string, body: TUpdateTool) =>
  apiFetch<TToolSummary>(toolPath(name), { method: "PATCH", body });
export const callTool = (name: string, args: Record<string, unknown>) =>
  apiFetch<TToolCallResult>(`${toolPath(name)}/call`, { method: "POST", body: { arguments: args } });

/** A slug and tool from a gateway name (`<slug>__<tool>`; a slug has no `_`, so the first `__` ends it). */
export function parseGatewayName(name: string): { slug: string; tool: string } | null {
  const at = name.indexOf("__");
  return at > 0 ? { slug: name.slice(0, at), tool: name.slice(at + 2) } : null;
}

export const serverHref = (slug: string, tab?: string) =>
  `/servers/${encodeURIComponent(slug)}${tab ? `?tab=${tab}` : ""}`;
export const toolHref = (name: string) => `/tools/${encodeURIComponent(name)}`;

/** While any server is still connecting, poll quickly so its outcome shows up without a reload. */
export function pollInterval(statuses: readonly TServer["status"][]): number {
  return statuses.includes("CONNECTING") ? 2_000 : 15_000;
}

type Health = Pick<TServer, "slug" | "enabled" | "status" | "lastError" | "latencyMs">;
const health = ({ enabled, status, lastError, latencyMs }: Health) => ({ enabled, status, lastError, latencyMs });

/**
 * A fresh read of servers' health goes to every cached view of them (the list and each server page), so the
 * list and a server's header show one state, whichever was fetched last.
 */
export function shareHealth(qc: QueryClient, servers: readonly Health[]) {
  const bySlug = new Map(servers.map((s) => [s.slug, health(s)]));
  qc.setQueryData<{ items: TServer[] }>(serversKey, (old) =>
    old && { ...old, items: old.items.map((s) => (bySlug.has(s.slug) ? { ...s, ...bySlug.get(s.slug) } : s)) },
  );
  for (const [slug, h] of bySlug)
    qc.setQueryData<TServerWithTools>(serverKey(slug), (old) => old && { ...old, server: { ...old.server, ...h } });
}

export const logsKey = (slug: string) => ["servers", slug, "logs"] as const;
export const getLogs = (slug: string, signal?: AbortSignal) =>
  apiFetch<TServerLogs>(`${serverPath(slug)}/logs`, { signal });
/** The logs tab follows the process live: a new stderr line shows within this. */
export const LOGS_POLL_MS = 2_000;

/** What the package's range resolves to now, beside what is installed. */
export const getPackageLatest = (slug: string, signal?: AbortSignal) =>
  apiFetch<TPackageLatest>(`${serverPath(slug)}/package/latest`, { signal });
/** Installs the version beside the current one and starts it as a canary. */
export const upgradePackage = (slug: string, body: TPackageUpgrade) =>
  apiFetch<TPackageUpgraded>(`${serverPath(slug)}/package/upgrade`, { method: "POST", body });
