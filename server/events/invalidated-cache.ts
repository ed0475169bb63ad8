// A process-local read cache kept honest by the change bus: entries are dropped when another process (or this
// one) publishes a change to them, and in any case after a short TTL. While the bus is not listening (start-up,
// a lost connection) an invalidation could be missed, so the cache then serves nothing and stores nothing.
import type { ChangeBus, ChangeEvent } from "./change-bus";

export type InvalidatedCache<V> = {
  /** The cached value, or the loader's (stored when no invalidation arrived while it ran). Concurrent misses share one load. */
  get(key: string, load: () => Promise<V | null>): Promise<V | null>;
  delete(key: string): void;
  close(): void;
};

export type InvalidatedCacheOptions<V> = {
  bus: ChangeBus;
  ttlMs: number;
  max?: number;
  /** Which entries an event makes stale: a key, a predicate over entries, or nothing. */
  invalidates(event: ChangeEvent): string | ((key: string, value: V) => boolean) | undefined;
};

export function createInvalidatedCache<V>(opts: InvalidatedCacheOptions<V>): InvalidatedCache<V> {
  const max = opts.max ?? 10_000;
  const entries = new Map<string, { value: V; until: number }>();
  const loading = new Map<string, Promise<V | null>>();
  let listening = false;
  // Bumped by every invalidation: a load that started before one may have read what it invalidated.
  let generation = 0;

  const unsubscribe = opts.bus.subscribe((event) => {
    if (event.kind === "listening") {
      listening = event.listening;
      invalidate(() => true);
      return;
    }
    const which = opts.invalidates(event);
    if (typeof which === "string") invalidate((k) => k === which);
    else if (which) invalidate(which);
  });

  function invalidate(stale: (key: string, value: V) => boolean) {
    generation++;
    // Loads under way may have read the old state: later callers start their own.
    loading.clear();
    for (const [k, e] of entries) if (stale(k, e.value)) entries.delete(k);
  }

  function store(key: string, value: V) {
    if (entries.size >= max) entries.delete(entries.keys().next().value!);
    entries.set(key, { value, until: Date.now() + opts.ttlMs });
  }

  return {
    get(key, load) {
      const hit = entries.get(key);
      if (hit && listening && hit.until > Date.now()) return Promise.resolve(hit.value);
      if (hit) entries.delete(key);
      const pending = loading.get(key);
      if (pending) return pending;
      const startedAt = generation;
      const p = load().then(
        (value) => {
          if (loading.get(key) === p) loading.delete(key);
          if (value !== null && listening && generation === startedAt) store(key, value);
          return value;
        },
        (err: unknown) => {
          if (loading.get(key) === p) loading.delete(key);
          throw err;
        },
      );
      loading.set(key, p);
      return p;
    },
    delete(key) {
      invalidate((k) => k === key);
    },
    close() {
      unsubscribe();
      entries.clear();
    },
  };
}
