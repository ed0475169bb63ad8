// A server's one-line summary (browse_catalog's line: the admin's, else the first sentence of its instructions) as
// evidence for its server, never for one of its tools over another. Every tool of a server is multiplied by the
// same factor: 1 + PRIOR_GAIN × how well the query's words match the summary, relative to the best-matching
// server. Indexed as a field of each tool instead, the summary reordered siblings (the ranker's coverage and
// action factors multiply a sum it adds to alike) and changed the vocabulary and IDF every other word is scored
// with: dev recall@1 −3 points on the search-quality benchmark (docs/benchmarks.md, D191).
import type { QueryWord } from "./expand-query";
import { terms } from "./tool-fields";

// Chosen on the tune and dev splits with a blind writer's summaries of all 68 servers: 0.1 left tune as it was and
// put one more dev query in the first five; 0.25 and above lost dev and tune queries at recall@1.
export const PRIOR_GAIN = 0.1;

export type ServerPrior = {
  /** Each server's factor for this query, or undefined when no summary matches any of its words. */
  factors(query: readonly QueryWord[]): ReadonlyMap<string, number> | undefined;
};

/** `summaries`: each server's summary (servers without one are left out and keep factor 1). */
export function serverPrior(summaries: ReadonlyMap<string, string>): ServerPrior {
  const termsOf = new Map<string, ReadonlySet<string>>();
  for (const [server, summary] of summaries) {
    const set = new Set(terms(summary));
    if (set.size > 0) termsOf.set(server, set);
  }
  const df = new Map<string, number>();
  for (const set of termsOf.values()) for (const term of set) df.set(term, (df.get(term) ?? 0) + 1);
  const n = termsOf.size;
  // BM25's idf over the summaries: a word every summary has ("manage", "records") says little about which server.
  const idf = (term: string) => Math.log(1 + (n - (df.get(term) ?? 0) + 0.5) / ((df.get(term) ?? 0) + 0.5));
  return {
    factors(query) {
      if (n === 0) return undefined;
      const match = new Map<string, number>();
      let best = 0;
      for (const [server, set] of termsOf) {
        let sum = 0;
        // A word written as it is: an argument inside a path, or a word the query only implies, is no evidence.
        for (const word of query) if (!word.inPath && !word.implied && set.has(word.term)) sum += idf(word.term);
        if (sum > 0) match.set(server, sum);
        best = Math.max(best, sum);
      }
      if (best === 0) return undefined;
      return new Map([...match].map(([server, sum]) => [server, 1 + (PRIOR_GAIN * sum) / best]));
    },
  };
}
