// Faults of an embedding provider, with stable codes: search falls back to lexical ranking on any of them, and
// the code is what the log and the failure counter show.

export type EmbeddingErrorCode =
  /** Not reachable, refused, an HTTP error status, or a model file that cannot be loaded. */
  | "embedding_unavailable"
  /** An answer that is not the promised shape: not JSON, too big, wrong count or dimensions, NaN. */
  | "embedding_bad_response"
  /** No complete answer within the configured time. */
  | "embedding_timeout"
  /** The stored vectors could not be read or written (PostgreSQL); counted like a provider fault. */
  | "embedding_store_failed";

export class EmbeddingError extends Error {
  override name = "EmbeddingError";
  constructor(
    readonly code: EmbeddingErrorCode,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(`[${code}] ${message}`, options);
  }
}
