// The benchmark's arithmetic: ranks, recall at k, MRR cut at the answer and nearest-rank percentiles.
import { describe, expect, it } from "vitest";
import { answerText } from "./answer-tokens";
import { percentile, rankOf, summarize } from "./metrics";
import { replicated, SCALE_SUFFIXES, toSearchable } from "./searchable-tools";

describe("search-quality metrics", () => {
  it("ranks from 1, and null when the expected tool is not in the answer", () => {
    expect(rankOf(["a__x", "b__y"], "b__y")).toBe(2);
    expect(rankOf(["a__x"], "b__y")).toBeNull();
  });

  it("summarizes recall at 1, 5 and 10, MRR with misses as 0, and mean answer tokens", () => {
    const summary = summarize([
      { rank: 1, answerTokens: 100 },
      { rank: 4, answerTokens: 200 },
      { rank: 10, answerTokens: 300 },
      { rank: null, answerTokens: 400 },
    ]);
    expect(summary).toEqual({
      queries: 4,
      recallAt1: 0.25,
      recallAt5: 0.5,
      recallAt10: 0.75,
      mrr: (1 + 1 / 4 + 1 / 10) / 4,
      meanAnswerTokens: 250,
    });
  });

  it("summarizes no queries as zeros, not NaN", () => {
    expect(summarize([])).toEqual({
      queries: 0,
      recallAt1: 0,
      recallAt5: 0,
      recallAt10: 0,
      mrr: 0,
      meanAnswerTokens: 0,
    });
  });

  it.each([
    [50, 3],
    [95, 5],
    [100, 5],
    [1, 1],
  ])("nearest-rank p%d of 1..5 shuffled is %d", (p, expected) => {
    expect(percentile([4, 1, 5, 3, 2], p)).toBe(expected);
  });
});

describe("search-quality tools and answers", () => {
  const tool = { server: "github", name: "get_issue", description: "Get an issue.", inputSchema: { type: "object" } };

  it("names tools as the gateway does, and replicates them under distinct server names", () => {
    expect(toSearchable(tool)).toMatchObject({ name: "github__get_issue", server: "github", tool: "get_issue" });
    const copies = replicated([tool], SCALE_SUFFIXES);
    expect(copies).toHaveLength(10);
    expect(new Set(copies.map((copy) => copy.name)).size).toBe(10);
  });

  it("renders a summary answer as search_tools does, counting anything extra a ranker adds", () => {
    const hit = {
      name: "github__get_issue",
      call: "tools.github.get_issue",
      args: "owner, repo",
      description: "Get an issue.",
    };
    expect(answerText({ tools: [hit] })).toBe("tools.github.get_issue({owner, repo}) — Get an issue.");
    const richer = { tools: [{ ...hit, note: "reads one issue" }], hint: "weak match" } as unknown as Parameters<
      typeof answerText
    >[0];
    expect(answerText(richer)).toBe(
      'tools.github.get_issue({owner, repo}) — Get an issue. {"note":"reads one issue"}\n{"hint":"weak match"}',
    );
  });
});
