// An OAuth client that uses an HTTPS URL as its client_id is resolved by the client ID metadata document at that
// URL (MCP authorization 2025-11-25; draft-ietf-oauth-client-id-metadata-document): the URL is checked, the
// document fetched through the SSRF guard with time and size limits, checked, and cached. The authorization server
// calls this for a client_id that looksLikeClientIdUrl; a refusal comes back as a ClientMetadataError value.
import type { OutboundPolicy, Resolver } from "../net/outbound-url";
import { parseClientIdUrl } from "./client-id-url";
import {
  createClientMetadataCache,
  type ClientMetadataCache,
  type ClientMetadataCacheSettings,
  type ClientMetadataOutcome,
} from "./client-metadata-cache";
import { ClientMetadataError } from "./client-metadata-error";
import { fetchClientMetadataDocument, type ClientMetadataFetchDeps } from "./fetch-client-metadata-document";
import { parseClientMetadataDocument } from "./parse-client-metadata-document";

export type ClientMetadataDocumentDeps = ClientMetadataFetchDeps & { cache: ClientMetadataCache };

/** The client's metadata (oidc-provider's shape, plus `verified: true`), or why it was refused. Never throws. */
export async function resolveClientMetadataDocument(
  clientId: string,
  deps: ClientMetadataDocumentDeps,
): Promise<ClientMetadataOutcome> {
  const url = parseClientIdUrl(clientId);
  if (url instanceof ClientMetadataError) return url;
  return deps.cache.resolve(clientId, async () => {
    const fetched = await fetchClientMetadataDocument(url, deps);
    if (fetched instanceof ClientMetadataError) return { outcome: fetched, maxAgeSeconds: null };
    return { outcome: parseClientMetadataDocument(fetched.text, clientId), maxAgeSeconds: fetched.maxAgeSeconds };
  });
}

/** Limits from the configuration (config.clientMetadata). */
export type ClientMetadataSettings = { timeoutMs: number; maxBytes: number; cache: ClientMetadataCacheSettings };

/** For the composition root: one cache per gateway, and a resolver bound to it and to the outbound policy. */
export function createClientMetadataDocumentResolver(
  settings: ClientMetadataSettings,
  policy: OutboundPolicy,
  options: { resolve?: Resolver; ca?: string; now?: () => number } = {},
): (clientId: string) => Promise<ClientMetadataOutcome> {
  const deps: ClientMetadataDocumentDeps = {
    policy,
    timeoutMs: settings.timeoutMs,
    maxBytes: settings.maxBytes,
    resolve: options.resolve,
    ca: options.ca,
    cache: createClientMetadataCache(settings.cache, options.now),
  };
  return (clientId) => resolveClientMetadataDocument(clientId, deps);
}
