// Stored tool embeddings (table tool_embeddings), keyed by provider id and text hash. Computing is claimed
// first: a row without a vector is a claim, inserted with ON CONFLICT DO NOTHING, so of two processes (or two
// searches) asking for the same missing vector only one computes it. A claim left by a process that died is
// taken over once it is older than the claim timeout.
import type { Db } from "../../db/client";

export type ToolEmbeddingStore = {
  /** The stored vectors among these hashes (claims without a vector are left out). */
  read(hashes: readonly string[]): Promise<Map<string, Float32Array>>;
  /** The hashes this caller now holds the claim of: not stored, and not claimed by someone else recently. */
  claim(hashes: readonly string[]): Promise<string[]>;
  /** Stores computed vectors (a row already holding a vector keeps it). */
  save(vectors: ReadonlyMap<string, Float32Array>): Promise<void>;
  /** Gives up claims whose vector was not stored (a provider fault), so a later search tries again. */
  release(hashes: readonly string[]): Promise<void>;
};

export const DEFAULT_CLAIM_TIMEOUT_MS = 5 * 60_000;

export function toolEmbeddingStore(db: Db, providerId: string, claimTimeoutMs = DEFAULT_CLAIM_TIMEOUT_MS): ToolEmbeddingStore {
  return {
    async read(hashes) {
      if (hashes.length === 0) return new Map();
      const rows = await db.$queryRaw<{ textHash: string; vector: Uint8Array; dimensions: number }[]>`
        SELECT "textHash", vector, dimensions FROM tool_embeddings
        WHERE "providerId" = ${providerId} AND "textHash" = ANY(${[...hashes]}::text[]) AND vector IS NOT NULL`;
      return new Map(rows.flatMap((r) => (r.vector.byteLength === r.dimensions * 4 ? [[r.textHash, fromBytes(r.vector)]] : [])));
    },
    async claim(hashes) {
      if (hashes.length === 0) return [];
      const rows = await db.$queryRaw<{ textHash: string }[]>`
        INSERT INTO tool_embeddings ("providerId", "textHash")
        SELECT ${providerId}, h FROM unnest(${[...hashes]}::text[]) AS h
        ON CONFLICT ("providerId", "textHash") DO UPDATE SET "claimedAt" = CURRENT_TIMESTAMP
          WHERE tool_embeddings.vector IS NULL
            AND tool_embeddings."claimedAt" < CURRENT_TIMESTAMP - make_interval(secs => ${claimTimeoutMs / 1000})
        RETURNING "textHash"`;
      return rows.map((r) => r.textHash);
    },
    async save(vectors) {
      if (vectors.size === 0) return;
      const hashes = [...vectors.keys()];
      // Base64 text, decoded by PostgreSQL: one statement for the batch, no driver-specific bytea[] binding.
      const encoded = [...vectors.values()].map((v) => Buffer.from(v.buffer, v.byteOffset, v.byteLength).toString("base64"));
      await db.$executeRaw`
        UPDATE tool_embeddings AS t SET vector = decode(u.b64, 'base64'), dimensions = length(decode(u.b64, 'base64')) / 4
        FROM unnest(${hashes}::text[], ${encoded}::text[]) AS u(hash, b64)
        WHERE t."providerId" = ${providerId} AND t."textHash" = u.hash AND t.vector IS NULL`;
    },
    async release(hashes) {
      if (hashes.length === 0) return;
      await db.$executeRaw`
        DELETE FROM tool_embeddings
        WHERE "providerId" = ${providerId} AND "textHash" = ANY(${[...hashes]}::text[]) AND vector IS NULL`;
    },
  };
}

function fromBytes(bytes: Uint8Array): Float32Array {
  // A copy: the driver's buffer may be a view into a pooled allocation, not 4-byte aligned.
  const copy = new Uint8Array(bytes);
  return new Float32Array(copy.buffer, 0, copy.byteLength / 4);
}
