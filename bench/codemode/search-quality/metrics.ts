// Ranking metrics over one answer per query: the 1-based rank of the expected tool in it, or null when it is
// not there. MRR is cut at the answer's length (MRR@10 with the default limit): a miss counts 0.
export type QueryOutcome = { rank: number | null; answerTokens: number };

export type QualitySummary = {
  queries: number;
  recallAt1: number;
  recallAt5: number;
  recallAt10: number;
  mrr: number;
  meanAnswerTokens: number;
};

export function summarize(outcomes: readonly QueryOutcome[]): QualitySummary {
  const n = outcomes.length;
  const share = (hit: (o: QueryOutcome) => boolean) => (n === 0 ? 0 : outcomes.filter(hit).length / n);
  const within = (k: number) => (o: QueryOutcome) => o.rank !== null && o.rank <= k;
  return {
    queries: n,
    recallAt1: share(within(1)),
    recallAt5: share(within(5)),
    recallAt10: share(within(10)),
    mrr: n === 0 ? 0 : outcomes.reduce((sum, o) => sum + (o.rank === null ? 0 : 1 / o.rank), 0) / n,
    meanAnswerTokens: n === 0 ? 0 : outcomes.reduce((sum, o) => sum + o.answerTokens, 0) / n,
  };
}

/** The 1-based position of `expected` in `names`, or null. */
export function rankOf(names: readonly string[], expected: string): number | null {
  const at = names.indexOf(expected);
  return at < 0 ? null : at + 1;
}

/** Nearest-rank percentile (p in 0–100) of unsorted values; NaN for none. */
export function percentile(values: readonly number[], p: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const rank = Math.max(1, Math.ceil((p / 100) * sorted.length));
  return sorted[rank - 1]!;
}
