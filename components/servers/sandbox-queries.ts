// What this host can sandbox with, and the secrets a server's task credentials may name. Both change rarely,
// so they are cached for a minute rather than polled.
import { useQuery } from "@tanstack/react-query";
import { apiFetch } from "@/components/api-client";
import type { TSandboxSupport } from "@/lib/sandbox-schemas";
import type { TSecretList } from "@/lib/secret-schemas";

export const sandboxKey = ["sandbox"] as const;
export const secretsKey = ["secrets"] as const;

export const getSandboxSupport = (signal?: AbortSignal) => apiFetch<TSandboxSupport>("/api/v1/sandbox", { signal });
export const listSecrets = (signal?: AbortSignal) => apiFetch<TSecretList>("/api/v1/secrets", { signal });

export function useSandboxSupport() {
  return useQuery({ queryKey: sandboxKey, queryFn: ({ signal }) => getSandboxSupport(signal), staleTime: 60_000 });
}

export function useSecretNames() {
  return useQuery({
    queryKey: secretsKey,
    queryFn: ({ signal }) => listSecrets(signal),
    staleTime: 60_000,
    select: (d) => d.items.map((s) => s.name).sort(),
  });
}
