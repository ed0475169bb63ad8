// Hybrid search quality with an embedding provider, on the search-quality dataset's HELD-OUT queries only
// (nothing here tunes anything): lexical alone (the current search_tools ranker), semantic alone, and the fused
// order at SEARCH_EMBEDDINGS_WEIGHT, with the time to embed every tool and the per-query latency.
//
//   SEARCH_EMBEDDINGS=onnx SEARCH_EMBEDDINGS_ONNX_MODEL=/models/all-MiniLM-L6-v2/model.onnx \
//     npx tsx bench/codemode/embeddings-recall.ts [dataset dir, default bench/codemode/search-quality]
//   SEARCH_EMBEDDINGS=openai SEARCH_EMBEDDINGS_URL=… SEARCH_EMBEDDINGS_MODEL=… SEARCH_EMBEDDINGS_API_KEY=… npx tsx …
//
// The vectors are held in memory here (the store's PostgreSQL round trip is measured by its integration test);
// the provider, the tool text, the lexical ranker and hybridRank are the shipped ones.
import { readFileSync } from "node:fs";
import path from "node:path";
import { createEmbeddingProvider } from "../../server/codemode/embeddings/create-embedding-provider";
import { embeddingText } from "../../server/codemode/embeddings/embedding-text";
import { hybridRank, type ScoredName } from "../../server/codemode/embeddings/hybrid-rank";
import { createToolIndex, MAX_LIMIT, type SearchableTool } from "../../server/codemode/tool-search";
import { loadConfig } from "../../server/config";
import { toGatewayName } from "../../server/registry/gateway-name";

type DatasetTool = { server: string; name: string; title?: string; description?: string; inputSchema: Record<string, unknown> };
type DatasetQuery = { id: string; query: string; expected: string; split: "tune" | "heldout"; lexical: boolean };

const dir = path.resolve(process.argv[2] ?? path.join(import.meta.dirname, "search-quality"));
const config = loadConfig().searchEmbeddings;
if (config.kind === "off") {
  console.error("Set SEARCH_EMBEDDINGS (openai or onnx) and its settings; see the README's semantic search section.");
  process.exit(2);
}
const provider = (await createEmbeddingProvider(config))!;
const dataset = <T>(file: string) => JSON.parse(readFileSync(path.join(dir, file), "utf8")) as T;
const tools: SearchableTool[] = dataset<DatasetTool[]>("tools.json").map((t) => ({
  name: toGatewayName(t.server, t.name),
  server: t.server,
  tool: t.name,
  title: t.title ?? null,
  description: t.description ?? null,
  inputSchema: t.inputSchema,
}));
const heldout = dataset<DatasetQuery[]>("queries.json").filter((q) => q.split === "heldout");
const expectedName = (q: DatasetQuery) => toGatewayName(q.expected.slice(0, q.expected.indexOf("/")), q.expected.slice(q.expected.indexOf("/") + 1));

const startEmbed = performance.now();
const vectors = await provider.embed(tools.map(embeddingText));
const embedAllMs = performance.now() - startEmbed;
const toolVecs = new Map(tools.map((t, i) => [t.name, vectors[i]!]));
const index = createToolIndex(tools);

const ranks = { lexical: [] as number[], semantic: [] as number[], hybrid: [] as number[] };
const queryMs: number[] = [];
const fuseMs: number[] = [];
for (const q of heldout) {
  // The lexical ranker answers names in order; the fusion uses only the order.
  const hits = index.search(q.query, { limit: MAX_LIMIT, detail: "name" }).tools;
  const lexical: ScoredName[] = hits.map((h, i) => ({ name: h.name, score: hits.length - i }));
  const t0 = performance.now();
  const [queryVec] = await provider.embed([q.query]);
  const t1 = performance.now();
  const hybrid = hybridRank(lexical, queryVec!, toolVecs, config.weight);
  fuseMs.push(performance.now() - t1);
  queryMs.push(t1 - t0);
  const semantic = hybridRank([], queryVec!, toolVecs, 1);
  const rankOf = (list: ScoredName[]) => list.findIndex((r) => r.name === expectedName(q)) + 1;
  ranks.lexical.push(rankOf(lexical));
  ranks.semantic.push(rankOf(semantic));
  ranks.hybrid.push(rankOf(hybrid));
}

const recall = (r: number[], k: number) => r.filter((x) => x >= 1 && x <= k).length / r.length;
const mrr = (r: number[]) => r.reduce((s, x) => s + (x >= 1 && x <= 10 ? 1 / x : 0), 0) / r.length;
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? 0;
console.log(`provider ${provider.id}, ${String(provider.dimensions)} dimensions, weight ${String(config.weight)}`);
console.log(`${String(tools.length)} tools embedded in ${embedAllMs.toFixed(0)} ms; ${String(heldout.length)} held-out queries`);
console.log(`per query: embedding median ${median(queryMs).toFixed(1)} ms, fusion median ${median(fuseMs).toFixed(2)} ms`);
for (const [name, r] of Object.entries(ranks)) {
  console.log(`${name.padEnd(9)} recall@1 ${recall(r, 1).toFixed(3)}  recall@5 ${recall(r, 5).toFixed(3)}  recall@10 ${recall(r, 10).toFixed(3)}  MRR@10 ${mrr(r).toFixed(3)}`);
}
