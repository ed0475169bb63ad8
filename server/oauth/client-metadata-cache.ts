// Resolved client ID metadata documents, kept in this process. A success lives as long as its server's
// Cache-Control max-age says, held within [min, max] (a document cannot make us refetch on every request, nor
// stay forever); a failure lives briefly (failureSeconds), so a client with a bad or slow document cannot make the
// gateway fetch in a loop. Resolutions of one URL that overlap share one fetch (single flight). The number of
// entries is bounded: past maxEntries the expired go first, then the least recently stored.
import type { ClientMetadataError } from "./client-metadata-error";
import type { ClientDocumentMetadata } from "./parse-client-metadata-document";

/** Documents kept at most (a client_id per entry); enough for every client a gateway sees, bounded against floods. */
export const CLIENT_METADATA_CACHE_ENTRIES = 1000;

export type ClientMetadataCacheSettings = {
  minSeconds: number;
  maxSeconds: number;
  defaultSeconds: number;
  failureSeconds: number;
  maxEntries: number;
};
export type ClientMetadataOutcome = ClientDocumentMetadata | ClientMetadataError;
/** What a load produced, with the lifetime the document's server asked for (seconds), if it did. */
export type LoadedClientMetadata = { outcome: ClientMetadataOutcome; maxAgeSeconds: number | null };

export type ClientMetadataCache = {
  /** The cached outcome for `clientId`, or the one `load` produces (started at most once at a time per clientId). */
  resolve(clientId: string, load: () => Promise<LoadedClientMetadata>): Promise<ClientMetadataOutcome>;
};

export function createClientMetadataCache(
  settings: ClientMetadataCacheSettings,
  now: () => number = Date.now,
): ClientMetadataCache {
  const entries = new Map<string, { outcome: ClientMetadataOutcome; expiresAt: number }>();
  const inFlight = new Map<string, Promise<ClientMetadataOutcome>>();

  const lifetimeSeconds = ({ outcome, maxAgeSeconds }: LoadedClientMetadata) =>
    outcome instanceof Error
      ? settings.failureSeconds
      : Math.min(settings.maxSeconds, Math.max(settings.minSeconds, maxAgeSeconds ?? settings.defaultSeconds));

  function store(clientId: string, loaded: LoadedClientMetadata): void {
    entries.delete(clientId);
    entries.set(clientId, { outcome: loaded.outcome, expiresAt: now() + lifetimeSeconds(loaded) * 1000 });
    if (entries.size <= settings.maxEntries) return;
    for (const [key, entry] of entries) if (entry.expiresAt <= now()) entries.delete(key);
    for (const key of entries.keys()) {
      if (entries.size <= settings.maxEntries) break;
      entries.delete(key);
    }
  }

  return {
    resolve(clientId, load) {
      const cached = entries.get(clientId);
      if (cached && cached.expiresAt > now()) return Promise.resolve(cached.outcome);
      const pending = inFlight.get(clientId);
      if (pending) return pending;
      const loading = load()
        .then((loaded) => {
          store(clientId, loaded);
          return loaded.outcome;
        })
        .finally(() => inFlight.delete(clientId));
      inFlight.set(clientId, loading);
      return loading;
    },
  };
}
