// The configured embedding provider (SEARCH_EMBEDDINGS), or null when semantic search is off.
import type { SearchEmbeddingsConfig } from "../../config";
import type { EmbeddingProvider } from "./embedding-provider";
import { onnxLocal } from "./onnx-local";
import { openAiCompatible } from "./open-ai-compatible";

/** An ONNX model is loaded here (seconds for a 90 MB file); a fault is an EmbeddingError naming the file. */
export async function createEmbeddingProvider(config: SearchEmbeddingsConfig): Promise<EmbeddingProvider | null> {
  switch (config.kind) {
    case "off":
      return null;
    case "openai":
      return openAiCompatible({
        url: config.url,
        model: config.model,
        apiKey: config.apiKey,
        dimensions: config.dimensions,
        timeoutMs: config.timeoutMs,
        maxBatch: config.maxBatch,
      });
    case "onnx":
      return onnxLocal({ modelPath: config.modelPath, tokenizerPath: config.tokenizerPath });
  }
}
