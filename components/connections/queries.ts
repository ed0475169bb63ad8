// REST calls and react-query keys for upstream connections (issue 22): the signed-in user's own connections and,
// for admins, a server's authentication settings and who is connected to it. Keys nest under ["upstream-auth"]
// so one invalidation after a connect or disconnect refreshes the user's page and any server's card together.
import { apiFetch } from "@/components/api-client";
import type { TAuthorizationUrl, TConnectionList, TPutServerAuth, TServerAuth, TServerConnectionList } from "./types";

export const upstreamAuthKey = ["upstream-auth"] as const;
export const myConnectionsKey = ["upstream-auth", "mine"] as const;
export const serverAuthKey = (serverId: string) => ["upstream-auth", "server", serverId] as const;
export const serverConnectionsKey = (serverId: string) => ["upstream-auth", "server", serverId, "connections"] as const;

const id = encodeURIComponent;

export const listMyConnections = (signal?: AbortSignal) => apiFetch<TConnectionList>("/api/v1/connections", { signal });
/** Connect or reconnect: the provider's authorization URL, where the browser goes next. */
export const startConnect = (serverId: string) =>
  apiFetch<TAuthorizationUrl>(`/api/v1/connections/${id(serverId)}/connect`, { method: "POST" });
export const disconnect = (connectionId: string) =>
  apiFetch<void>(`/api/v1/connections/${id(connectionId)}`, { method: "DELETE" });

export const getServerAuth = (serverId: string, signal?: AbortSignal) =>
  apiFetch<TServerAuth>(`/api/v1/servers/${id(serverId)}/auth`, { signal });
export const putServerAuth = (serverId: string, body: TPutServerAuth) =>
  apiFetch<TServerAuth>(`/api/v1/servers/${id(serverId)}/auth`, { method: "PUT", body });
export const startSharedConnect = (serverId: string) =>
  apiFetch<TAuthorizationUrl>(`/api/v1/servers/${id(serverId)}/auth/connect`, { method: "POST" });
export const listServerConnections = (serverId: string, signal?: AbortSignal) =>
  apiFetch<TServerConnectionList>(`/api/v1/servers/${id(serverId)}/connections`, { signal });
