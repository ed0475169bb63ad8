import { describe, expect, it } from "vitest";
import { cosine } from "../../../server/codemode/embeddings/vector-math";
import { sifMean, type WinkVectors } from "./glove-mean";

// Rank 0 is the most frequent word: with SIF weights it counts far less than a rare one.
const table: WinkVectors = {
  dimensions: 2,
  words: ["issue", "geocode", "address"],
  vectors: { issue: [1, 0], geocode: [0, 1], address: [0, 1] },
};

describe("sifMean", () => {
  it("gives unit-length vectors, a frequent word weighing less than a rare one", async () => {
    const [both] = await sifMean(table).embed(["issue geocode"]);
    expect(Math.hypot(...both!)).toBeCloseTo(1, 6);
    // geocode (rank 1) outweighs issue (rank 0), so the mean leans towards geocode's axis.
    expect(both![1]!).toBeGreaterThan(both![0]!);
  });

  it("skips unknown words and function words, as written in identifiers too", async () => {
    const [a, b] = await sifMean(table).embed(["the geocode of an unknownword", "maps_geocode"]);
    expect(cosine(a!, b!)).toBeCloseTo(1, 6);
  });

  it("answers a zero vector for a text it knows no word of", async () => {
    const [none] = await sifMean(table).embed(["nothing known here"]);
    expect([...none!]).toEqual([0, 0]);
  });
});
