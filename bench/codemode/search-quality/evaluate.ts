// One evaluation of a tool index over the dataset: every query with the given options, aggregated per split,
// per split's non-lexical queries and per split's queries answered by a real captured tool. Misses are listed
// for the tuning splits (tune, dev) only: held-out queries leave this module as aggregates, so they cannot steer
// tuning.
import { MAX_LIMIT, type SearchOptions, type ToolIndex } from "../../../server/codemode/tool-search";
import { answerTokens } from "./answer-tokens";
import { AGGREGATES_ONLY, toolKey, type DatasetQuery, type DatasetTool, type Split } from "./dataset";
import { rankOf, summarize, type QualitySummary, type QueryOutcome } from "./metrics";
import { toSearchable } from "./searchable-tools";

export type SearchOptionsIn = SearchOptions & Record<string, unknown>;
export type SubsetReport = QualitySummary & { recallAt50: number };
export type TuneMiss = {
  id: string;
  split: Split;
  query: string;
  expected: string;
  /** Rank within a 50-tool answer; null beyond it. */
  rank: number | null;
  lexical: boolean;
  top: string[];
};
export type Evaluation = { quality: Record<string, SubsetReport>; tuneMisses: TuneMiss[] };

type Scored = {
  query: DatasetQuery;
  expected: string;
  outcome: QueryOutcome;
  rankWithin50: number | null;
  top: string[];
};

export function evaluate(
  index: Pick<ToolIndex, "search" | "size">,
  tools: readonly DatasetTool[],
  queries: readonly DatasetQuery[],
  splits: readonly Split[],
  options: SearchOptionsIn = {},
  /** With --examples-share below 1: the tools indexed with example requests, reported apart from the others. */
  withExamples?: ReadonlySet<string>,
): Evaluation {
  const nameOf = new Map(tools.map((tool) => [toolKey(tool), toSearchable(tool).name]));
  const real = new Set(tools.filter((tool) => tool.source !== undefined).map(toolKey));
  const scored = queries.map((query): Scored => {
    const expected = nameOf.get(query.expected);
    if (expected === undefined) throw new Error(`query ${query.id}: no tool ${query.expected}`);
    const answer = index.search(query.query, { ...options });
    const names = answer.tools.map((hit) => hit.name);
    const deep = index.search(query.query, { ...options, limit: MAX_LIMIT }).tools.map((hit) => hit.name);
    return {
      query,
      expected,
      outcome: { rank: rankOf(names, expected), answerTokens: answerTokens(answer) },
      rankWithin50: rankOf(deep, expected),
      top: names.slice(0, 3),
    };
  });

  const quality: Record<string, SubsetReport> = {};
  for (const split of splits) {
    const inSplit = scored.filter((s) => s.query.split === split);
    quality[split] = subset(inSplit);
    quality[`${split} non-lexical`] = subset(inSplit.filter((s) => !s.query.lexical));
    quality[`${split} real tools`] = subset(inSplit.filter((s) => real.has(s.query.expected)));
    if (withExamples) {
      quality[`${split} tools with examples`] = subset(inSplit.filter((s) => withExamples.has(s.query.expected)));
      quality[`${split} tools without`] = subset(inSplit.filter((s) => !withExamples.has(s.query.expected)));
    }
  }
  const tuneMisses = scored
    .filter((s) => !AGGREGATES_ONLY.has(s.query.split) && s.outcome.rank !== 1)
    .sort((a, b) => (a.rankWithin50 ?? 99) - (b.rankWithin50 ?? 99) || a.query.id.localeCompare(b.query.id))
    .map((s) => ({
      id: s.query.id,
      split: s.query.split,
      query: s.query.query,
      expected: s.expected,
      rank: s.rankWithin50,
      lexical: s.query.lexical,
      top: s.top,
    }));
  return { quality, tuneMisses };
}

function subset(scored: readonly Scored[]): SubsetReport {
  const n = scored.length;
  return {
    ...summarize(scored.map((s) => s.outcome)),
    recallAt50: n === 0 ? 0 : scored.filter((s) => s.rankWithin50 !== null).length / n,
  };
}
