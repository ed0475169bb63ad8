import { describe, expect, it } from "vitest";
import { MAX_JSON_DEPTH, nestsDeeperThan } from "./json-depth";

const nested = (depth: number): unknown => JSON.parse("[".repeat(depth) + "]".repeat(depth));

describe("nestsDeeperThan", () => {
  it.each([
    [1, false],
    [MAX_JSON_DEPTH, false],
    [MAX_JSON_DEPTH + 1, true],
    [500_000, true],
  ])("an array nested %i levels deep → %s, without recursion", (depth, deeper) => {
    expect(nestsDeeperThan(nested(depth))).toBe(deeper);
  });

  it("counts objects and arrays alike, and scalars not at all", () => {
    expect(nestsDeeperThan({ a: [{ b: 1 }] }, 3)).toBe(false);
    expect(nestsDeeperThan({ a: [{ b: {} }] }, 3)).toBe(true);
    expect(nestsDeeperThan("deep", 0)).toBe(false);
  });
});
