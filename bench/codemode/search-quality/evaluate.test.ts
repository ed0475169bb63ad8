// The evaluation against the real index over the real dataset: held-out queries never surface one by one,
// and an answer's rank is read from what the index returns.
import { describe, expect, it } from "vitest";
import { createToolIndex, type SearchAnswer, type ToolIndex } from "../../../server/codemode/tool-search";
import { AGGREGATES_ONLY, loadQueries, loadTools } from "./dataset";
import { evaluate } from "./evaluate";
import { toSearchable } from "./searchable-tools";

const tools = loadTools();
const queries = loadQueries();

describe("search-quality evaluation", () => {
  // A sample of both splits keeps this fast; the rank-3 test below covers every query.
  const sample = queries.slice(0, 60);

  it("lists misses of the tuning splits only, with aggregates for both splits and their subsets", () => {
    const index = createToolIndex(tools.map((tool) => toSearchable(tool)));
    const { quality, tuneMisses } = evaluate(index, tools, sample, ["tune", "heldout"]);
    const heldout = new Set(sample.filter((query) => query.split === "heldout").map((query) => query.id));
    expect(tuneMisses.filter((miss) => heldout.has(miss.id))).toEqual([]);
    expect(Object.keys(quality).sort()).toEqual(
      ["heldout", "heldout non-lexical", "heldout real tools", "tune", "tune non-lexical", "tune real tools"].sort(),
    );
    expect(quality.heldout!.queries).toBeGreaterThan(0);
    expect(quality.heldout!.queries + quality.tune!.queries).toBe(sample.length);
  }, 20_000);

  it("scores an index that answers each query's expected tool at rank 3 as recall@1 0, recall@5 1, MRR 1/3", () => {
    const expectedOf = new Map(queries.map((query) => [query.query, query.expected.replace("/", "__")]));
    const third: Pick<ToolIndex, "search" | "size"> = {
      size: tools.length,
      search(query): SearchAnswer {
        const names = ["x__a", "x__b", expectedOf.get(query)!];
        return { tools: names.map((name) => ({ name, call: `tools.${name}` })) };
      },
    };
    const { quality, tuneMisses } = evaluate(third, tools, queries, ["heldout"]);
    expect(quality.heldout).toMatchObject({ recallAt1: 0, recallAt5: 1, recallAt10: 1, recallAt50: 1 });
    expect(quality.heldout!.mrr).toBeCloseTo(1 / 3);
    // Every query missed rank 1, yet only the tuning splits' (tune, dev, dev2) are listed: not the held-out or the
    // validation split's.
    const tune = queries.filter((query) => !AGGREGATES_ONLY.has(query.split)).map((query) => query.id);
    expect(queries.some((query) => query.split === "dev3")).toBe(true);
    expect(tuneMisses.map((miss) => miss.id).sort()).toEqual(tune.sort());
    expect(tuneMisses.every((miss) => miss.rank === 3)).toBe(true);
  });
});
