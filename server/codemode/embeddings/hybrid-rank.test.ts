import { describe, expect, it } from "vitest";
import { hybridRank, RRF_K } from "./hybrid-rank";

const v = (...xs: number[]) => {
  const a = Float32Array.from(xs);
  const n = Math.hypot(...xs);
  return a.map((x) => x / n);
};
const names = (r: { name: string }[]) => r.map((x) => x.name);

describe("hybridRank", () => {
  const vecs = new Map([
    ["maps__geocode", v(1, 0, 0)],
    ["orders__delete_order", v(0, 1, 0)],
    ["chat__send_message", v(0, 0, 1)],
  ]);
  const query = v(1, 0.1, 0);

  it("weight 0 keeps the lexical order and leaves out tools only the vectors know", () => {
    const lexical = [
      { name: "chat__send_message", score: 3 },
      { name: "orders__delete_order", score: 7 },
    ];
    expect(names(hybridRank(lexical, query, vecs, 0))).toEqual(["orders__delete_order", "chat__send_message"]);
  });

  it("weight 1 is the semantic order alone", () => {
    const lexical = [{ name: "chat__send_message", score: 9 }];
    expect(names(hybridRank(lexical, query, vecs, 1))).toEqual([
      "maps__geocode",
      "orders__delete_order",
      "chat__send_message",
    ]);
  });

  it("finds a tool the query shares no word with (lexical found nothing)", () => {
    expect(names(hybridRank([], query, vecs, 0.5))[0]).toBe("maps__geocode");
  });

  it("a tool first in both lists wins over one first in only one", () => {
    const lexical = [
      { name: "maps__geocode", score: 5 },
      { name: "chat__send_message", score: 4 },
    ];
    const ranked = hybridRank(lexical, query, vecs, 0.5);
    expect(ranked[0]).toEqual({ name: "maps__geocode", score: 0.5 / (RRF_K + 1) + 0.5 / (RRF_K + 1) });
  });

  it("equal fused scores go to the better lexical rank, then the name", () => {
    // a: lexical 1st, semantic 2nd; b: lexical 2nd, semantic 1st: equal at weight 0.5.
    const two = new Map([
      ["b", v(1, 0)],
      ["a", v(0.6, 0.8)],
    ]);
    const lexical = [
      { name: "a", score: 2 },
      { name: "b", score: 1 },
    ];
    expect(names(hybridRank(lexical, v(1, 0), two, 0.5))).toEqual(["a", "b"]);
    const noLexical = new Map([
      ["y", v(1, 0)],
      ["x", v(1, 0)],
    ]);
    expect(names(hybridRank([], v(1, 0), noLexical, 1))).toEqual(["x", "y"]);
  });

  it.each([
    ["NaN", Number.NaN, ["orders__delete_order"]],
    ["below 0", -3, ["orders__delete_order"]],
    ["above 1", 7, ["maps__geocode", "orders__delete_order", "chat__send_message"]],
  ])("a weight %s is clamped (NaN counts as 0)", (_label, weight, expected) => {
    expect(names(hybridRank([{ name: "orders__delete_order", score: 1 }], query, vecs, weight))).toEqual(expected);
  });

  it("a duplicate lexical entry counts once, at its best score", () => {
    const lexical = [
      { name: "a", score: 1 },
      { name: "a", score: 5 },
      { name: "b", score: 3 },
    ];
    expect(hybridRank(lexical, query, new Map(), 0)).toEqual([
      { name: "a", score: 1 / (RRF_K + 1) },
      { name: "b", score: 1 / (RRF_K + 2) },
    ]);
  });

  it("a vector of another length or with NaN ranks last semantically, never first", () => {
    const odd = new Map([
      ["short", Float32Array.from([1, 0])],
      ["nan", Float32Array.from([Number.NaN, 0, 0])],
      ["good", v(1, 0, 0)],
    ]);
    const ranked = names(hybridRank([], v(1, 0, 0), odd, 1));
    expect(ranked[0]).toBe("good");
    expect(ranked).not.toContain("nan");
  });
});
