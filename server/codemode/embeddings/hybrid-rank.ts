// Fuses the lexical ranking with the semantic one by weighted reciprocal-rank fusion (Cormack et al., 2009):
// each list gives a tool 1 / (K + rank), weighted weight (semantic) and 1 - weight (lexical). Ranks, not scores,
// because the two scales have nothing in common: BM25 is unbounded and shifts with the index and the query's
// length, cosine similarity of one model clusters in a narrow band of another's. RRF needs no calibration
// per model or per lexical ranker, and a tool the query shares no word with still ranks by meaning.
import { compareCodeUnits } from "../../../lib/compare-code-units";
import { cosine } from "./vector-math";

export type ScoredName = { name: string; score: number };

/** The usual RRF constant: ranks 1 and 2 differ little, the top 10 a lot more than ranks 100 and 110. */
export const RRF_K = 60;

/**
 * Fused order, best first, of every tool that the lexical ranking found or that has a vector. `weight` is the
 * semantic share in [0, 1]: 0 keeps the lexical order (tools only the vectors know are left out), 1 is the
 * semantic order alone. Ties go to the better lexical rank, then to the name.
 */
export function hybridRank(
  lexical: readonly ScoredName[],
  queryVec: Float32Array,
  toolVecs: ReadonlyMap<string, Float32Array>,
  weight: number,
): ScoredName[] {
  const w = Number.isFinite(weight) ? Math.min(1, Math.max(0, weight)) : 0;
  const fused = new Map<string, number>();
  const lexicalRank = new Map<string, number>();
  [...lexical]
    .sort((a, b) => b.score - a.score || compareCodeUnits(a.name, b.name))
    .forEach(({ name }, i) => {
      if (lexicalRank.has(name)) return;
      lexicalRank.set(name, i + 1);
      fused.set(name, (1 - w) / (RRF_K + i + 1));
    });
  if (w > 0) {
    // Typed arrays and an index sort: at 5,000 tools this is most of a search's cost.
    const names = [...toolVecs.keys()];
    const similarity = new Float64Array(names.length);
    let i = 0;
    for (const vec of toolVecs.values()) similarity[i++] = cosine(queryVec, vec);
    const order = Array.from(names.keys())
      .filter((j) => Number.isFinite(similarity[j]))
      .sort((a, b) => similarity[b]! - similarity[a]! || compareCodeUnits(names[a]!, names[b]!));
    order.forEach((j, rank) => fused.set(names[j]!, (fused.get(names[j]!) ?? 0) + w / (RRF_K + rank + 1)));
  }
  const last = Number.MAX_SAFE_INTEGER;
  return [...fused]
    .filter(([, score]) => score > 0)
    .map(([name, score]) => ({ name, score }))
    .sort(
      (a, b) =>
        b.score - a.score ||
        (lexicalRank.get(a.name) ?? last) - (lexicalRank.get(b.name) ?? last) ||
        compareCodeUnits(a.name, b.name),
    );
}
