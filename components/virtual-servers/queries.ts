// What the Virtual servers page reads and writes: the virtual servers, and the tools, prompts and resources
// members are picked from (the servers pages' own fetchers and keys, so their caches are shared).
import { useQuery } from "@tanstack/react-query";
import { apiFetch } from "@/components/api-client";
import { getOfferings, listServers, listTools, offeringsKey, serversKey, toolsKey } from "@/components/servers/queries";
import type { TCreateVirtualServer, TUpdateVirtualServer, TVirtualServer, TVirtualServerList } from "@/lib/virtual-server-schemas";

export const virtualServersKey = ["virtual-servers"] as const;
const path = (name: string) => `/api/v1/virtual-servers/${encodeURIComponent(name)}`;

export const useVirtualServers = () =>
  useQuery({ queryKey: virtualServersKey, queryFn: ({ signal }) => apiFetch<TVirtualServerList>("/api/v1/virtual-servers", { signal }) });
export const useServers = () => useQuery({ queryKey: serversKey, queryFn: ({ signal }) => listServers(signal) });
export const useTools = () => useQuery({ queryKey: toolsKey, queryFn: ({ signal }) => listTools(signal) });
/** One server's prompts and resources, fetched only while a prompt or resource is being picked from it. */
export const useOfferings = (slug: string, enabled: boolean) =>
  useQuery({ queryKey: offeringsKey(slug), queryFn: ({ signal }) => getOfferings(slug, signal), enabled: enabled && slug !== "" });

export const createVirtualServer = (body: TCreateVirtualServer) => apiFetch<TVirtualServer>("/api/v1/virtual-servers", { method: "POST", body });
export const updateVirtualServer = (name: string, body: TUpdateVirtualServer) => apiFetch<TVirtualServer>(path(name), { method: "PATCH", body });
export const deleteVirtualServer = (name: string) => apiFetch<TVirtualServer>(path(name), { method: "DELETE" });
