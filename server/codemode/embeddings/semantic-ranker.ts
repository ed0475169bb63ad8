// Semantic re-ranking of code mode's tool search: the seam the search calls. A tool set is prepared once per
// definition version (text and hash per tool); its vectors come from memory, else the store, else the provider
// (claimed, batched, saved), filled in the background so no search waits for 500 tools to be embedded. A search
// embeds only its query. Any provider fault leaves the lexical order as it was: logged once until the provider
// answers again, counted per code, and the provider left alone for a cool-down so searches do not each wait
// for its timeout.
import type { Db } from "../../db/client";
import type { Logger } from "../../logger";
import { countEmbeddingFailure } from "../../metrics/metrics";
import type { SearchableTool } from "../declarations";
import { EmbeddingError, type EmbeddingErrorCode } from "./embedding-error";
import type { EmbeddingProvider } from "./embedding-provider";
import { embeddingText, textHash } from "./embedding-text";
import { hybridRank, type ScoredName } from "./hybrid-rank";
import { toolEmbeddingStore } from "./tool-embedding-store";

export type SemanticRankerOptions = {
  db: Db;
  provider: EmbeddingProvider;
  /** Semantic share of the fused rank, in [0, 1]. */
  weight: number;
  logger: Logger;
  /** Texts per provider call while filling the store; each batch is saved when it is done. */
  batchSize?: number;
  /** After a fault, searches skip the provider this long. */
  coolDownMs?: number;
  /** Vectors held in memory (tool texts and queries together). */
  maxCached?: number;
  now?: () => number;
};

/** A tool set's texts and hashes, prepared once per definition version (keep it beside the lexical index). */
export type SemanticToolSet = { readonly hashes: ReadonlyMap<string, string>; readonly texts: ReadonlyMap<string, string> };

export type SemanticRanker = {
  readonly providerId: string;
  prepare(tools: readonly SearchableTool[]): SemanticToolSet;
  /** Fused order of the lexical hits and the semantic neighbours; the lexical order itself on any fault. */
  rank(query: string, set: SemanticToolSet, lexical: readonly ScoredName[], signal?: AbortSignal): Promise<ScoredName[]>;
  /**
   * Loads or computes the set's missing vectors; resolves when done or given up (a fault is reported, not
   * thrown). Joins a fill of the set already under way; does nothing while the provider cools down.
   */
  warm(set: SemanticToolSet): Promise<void>;
};

const DEFAULT_BATCH = 64;
// As the lexical index: a pasted essay is cut here (and a remote provider bills by the token).
const MAX_QUERY_CHARS = 500;
const DEFAULT_COOL_DOWN_MS = 30_000;
const DEFAULT_MAX_CACHED = 20_000;

export function createSemanticRanker(options: SemanticRankerOptions): SemanticRanker {
  const { provider, logger } = options;
  const store = toolEmbeddingStore(options.db, provider.id);
  const now = options.now ?? Date.now;
  const cache = new BoundedCache(options.maxCached ?? DEFAULT_MAX_CACHED);
  const warming = new Map<SemanticToolSet, Promise<void>>();
  let failingSince: number | null = null;

  function reportFailure(err: unknown): void {
    const code: EmbeddingErrorCode = err instanceof EmbeddingError ? err.code : "embedding_store_failed";
    countEmbeddingFailure(code);
    if (failingSince === null) {
      logger.warn({ provider: provider.id, code, err: err instanceof Error ? err.message : String(err) }, "embedding provider failed; tool search falls back to lexical ranking");
    }
    failingSince = now();
  }
  function reportSuccess(): void {
    if (failingSince !== null) logger.info({ provider: provider.id }, "embedding provider answers again; semantic ranking resumed");
    failingSince = null;
  }
  const coolingDown = () => failingSince !== null && now() - failingSince < (options.coolDownMs ?? DEFAULT_COOL_DOWN_MS);

  async function fill(set: SemanticToolSet): Promise<void> {
    const missing = [...new Set(set.hashes.values())].filter((h) => !cache.has(toolKey(h)));
    if (missing.length === 0) return;
    for (const [hash, vector] of await store.read(missing)) cache.set(toolKey(hash), vector);
    const claimed = await store.claim(missing.filter((h) => !cache.has(toolKey(h))));
    const textOf = new Map([...set.hashes].map(([name, hash]) => [hash, set.texts.get(name)!]));
    let pending = claimed;
    try {
      while (pending.length > 0) {
        const batch = pending.slice(0, options.batchSize ?? DEFAULT_BATCH);
        const vectors = await provider.embed(batch.map((h) => textOf.get(h)!));
        if (vectors.length !== batch.length) {
          throw new EmbeddingError("embedding_bad_response", `${String(vectors.length)} vectors for ${String(batch.length)} texts`);
        }
        const computed = new Map(batch.map((h, i) => [h, vectors[i]!]));
        await store.save(computed);
        for (const [hash, vector] of computed) cache.set(toolKey(hash), vector);
        pending = pending.slice(batch.length);
        reportSuccess();
      }
    } finally {
      // Hashes claimed but not stored (a fault) are given back; others' claims fill in on a later search.
      await store.release(pending);
    }
  }

  // One fill at a time per tool set; two sets that share tools are kept apart by the claims.
  function warm(set: SemanticToolSet): Promise<void> {
    let pending = warming.get(set);
    if (!pending) {
      if (coolingDown()) return Promise.resolve();
      pending = fill(set)
        .catch(reportFailure)
        .finally(() => warming.delete(set));
      warming.set(set, pending);
    }
    return pending;
  }

  async function queryVector(query: string, signal: AbortSignal | undefined): Promise<Float32Array> {
    const key = `q\0${query}`;
    const hit = cache.get(key);
    if (hit) return hit;
    const [vector] = await provider.embed([query], signal);
    if (!vector) throw new EmbeddingError("embedding_bad_response", "no vector for the query");
    cache.set(key, vector);
    return vector;
  }

  return {
    providerId: provider.id,
    prepare(tools) {
      const texts = new Map(tools.map((t) => [t.name, embeddingText(t)]));
      return { texts, hashes: new Map([...texts].map(([name, text]) => [name, textHash(text)])) };
    },
    async rank(query, set, lexical, signal) {
      if (coolingDown() || options.weight <= 0 || query.trim() === "") return [...lexical];
      const toolVecs = new Map<string, Float32Array>();
      for (const [name, hash] of set.hashes) {
        const vector = cache.get(toolKey(hash));
        if (vector) toolVecs.set(name, vector);
      }
      if (toolVecs.size < set.hashes.size) void warm(set);
      let queryVec: Float32Array;
      try {
        queryVec = await queryVector(query.slice(0, MAX_QUERY_CHARS), signal);
        reportSuccess();
      } catch (err) {
        if (signal?.aborted) throw err;
        reportFailure(err);
        return [...lexical];
      }
      return hybridRank(lexical, queryVec, toolVecs, options.weight);
    },
    warm,
  };
}

const toolKey = (hash: string) => `t\0${hash}`;

// Least recently used out first (a Map iterates in insertion order).
class BoundedCache {
  private readonly entries = new Map<string, Float32Array>();
  constructor(private readonly max: number) {}
  has(key: string): boolean {
    return this.entries.has(key);
  }
  get(key: string): Float32Array | undefined {
    const value = this.entries.get(key);
    if (value) {
      this.entries.delete(key);
      this.entries.set(key, value);
    }
    return value;
  }
  set(key: string, value: Float32Array): void {
    this.entries.delete(key);
    this.entries.set(key, value);
    if (this.entries.size > this.max) this.entries.delete(this.entries.keys().next().value!);
  }
}
