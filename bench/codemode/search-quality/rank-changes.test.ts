import { describe, expect, it } from "vitest";
import type { TuneMiss } from "./evaluate";
import { rankChanges, tuningRanks } from "./rank-changes";

const miss = (id: string, split: TuneMiss["split"], rank: number | null): TuneMiss => ({ id, split, query: "", expected: "", rank, lexical: true, top: [] });

describe("rank changes between two runs", () => {
  it("ranks the evaluated tuning queries, first unless missed, and never a held-out or validation one", () => {
    const queries = [
      { id: "t1", split: "tune" },
      { id: "t2", split: "tune" },
      { id: "d1", split: "dev" },
      { id: "e1", split: "dev2" },
      { id: "v1", split: "dev3" },
      { id: "h1", split: "heldout" },
    ];
    expect(tuningRanks(queries, ["tune", "heldout"], [miss("t2", "tune", 4)])).toEqual({ t1: 1, t2: 4 });
    expect(tuningRanks(queries, ["tune", "dev", "heldout"], [miss("d1", "dev", null)])).toEqual({ t1: 1, t2: 1, d1: null });
    expect(tuningRanks(queries, ["dev2", "dev3", "heldout"], [miss("e1", "dev2", 2)])).toEqual({ e1: 2 });
  });

  it("lists the queries that moved, gains first, beyond 50 counted as 51", () => {
    const before = { a: 1, b: 3, c: null, d: 2, gone: 1 };
    const after = { a: 1, b: 1, c: 7, d: 9, new: 1 };
    expect(rankChanges(before, after)).toEqual([
      { id: "c", before: null, after: 7 },
      { id: "b", before: 3, after: 1 },
      { id: "d", before: 2, after: 9 },
    ]);
  });
});
