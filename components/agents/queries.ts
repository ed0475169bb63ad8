// REST calls and react-query keys for agent sessions. Keys nest under ["agent-sessions"] so one invalidation
// refreshes both the caller's list and everyone's.
import { apiFetch } from "@/components/api-client";
import type {
  TAgentSession,
  TCreatedSession,
  TCreateSession,
  TEffectiveGrant,
  TSessionSettings,
} from "@/lib/policy-schemas";
import type { TBlockClient, TBlockOutcome, TOAuthClient } from "@/lib/oauth-schemas";

export const sessionsKey = ["agent-sessions"] as const;
export const sessionListKey = (all: boolean) => ["agent-sessions", all ? "all" : "mine"] as const;
export const grantKey = ["me", "grant"] as const;
export const sessionSettingsKey = ["settings", "sessions"] as const;

export const getMyGrant = (signal?: AbortSignal) => apiFetch<TEffectiveGrant>("/api/v1/me/grant", { signal });

export const listSessions = (all: boolean, signal?: AbortSignal) =>
  apiFetch<{ items: TAgentSession[] }>(`/api/v1/sessions${all ? "?all=1" : ""}`, { signal });
export const createSession = (body: TCreateSession) =>
  apiFetch<TCreatedSession>("/api/v1/sessions", { method: "POST", body });
export const revokeSession = (id: string) =>
  apiFetch<TAgentSession>(`/api/v1/sessions/${encodeURIComponent(id)}`, { method: "DELETE" });

export const getSessionSettings = (signal?: AbortSignal) =>
  apiFetch<TSessionSettings>("/api/v1/settings/sessions", { signal });
export const updateSessionSettings = (body: TSessionSettings) =>
  apiFetch<TSessionSettings>("/api/v1/settings/sessions", { method: "PATCH", body });

export const oauthClientsKey = ["oauth-clients"] as const;
export const listOAuthClients = (signal?: AbortSignal) => apiFetch<TOAuthClient[]>("/api/v1/oauth/clients", { signal });
export const blockOAuthClient = (body: TBlockClient) =>
  apiFetch<TBlockOutcome>("/api/v1/oauth/clients/block", { method: "POST", body });
export const unblockOAuthClient = (clientId: string) =>
  apiFetch<TBlockOutcome>("/api/v1/oauth/clients/unblock", { method: "POST", body: { clientId } });
