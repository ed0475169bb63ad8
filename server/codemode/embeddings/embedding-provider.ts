// What code mode's semantic ranking needs from an embedding model, whichever runs it (a remote
// OpenAI-compatible endpoint or a local ONNX file): texts in, one unit-length vector per text out.

export type EmbeddingProvider = {
  /** `<kind>:<model>`, e.g. `openai:text-embedding-3-small`; part of the stored vectors' key, so a new model re-embeds. */
  readonly id: string;
  /** Known up front for a local model; learned from the first answer for a remote one. */
  readonly dimensions?: number;
  /** One vector per text, in order, each L2-normalised (cosine similarity is then a dot product). */
  embed(texts: string[], signal?: AbortSignal): Promise<Float32Array[]>;
};
