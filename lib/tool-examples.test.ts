import { describe, expect, it } from "vitest";
import { exampleRequestLines, exampleRequestsProblems, type ExampleProblem } from "./tool-examples";
import { ZUpdateTool } from "./schemas";

const codes = (problems: ExampleProblem[]) => problems.map((p) => [p.index, p.code]);

describe("exampleRequestsProblems – one line each, 3–200 characters, no repeats, at most 10", () => {
  it.each<[string, string[], [number | null, string][]]>([
    ["two plain requests", ["text a code to this number", "send the verification SMS"], []],
    ["none", [], []],
    ["200 emoji (code points, not UTF-16 units)", ["😀".repeat(200)], []],
    ["201 characters", ["x".repeat(201)], [[0, "example_too_long"]]],
    ["two characters", ["ok", "fine request"], [[0, "example_too_short"]]],
    ["a line break", ["two\nlines"], [[0, "example_control_character"]]],
    ["NUL", ["nul\u0000here"], [[0, "example_control_character"]]],
    ["a bidi override", ["bidi\u202eoverride"], [[0, "example_control_character"]]],
    ["a lone surrogate", ["lone \ud800 half"], [[0, "example_invalid_unicode"]]],
    ["a repeat in other case and spacing", ["Count my calls", "count  MY calls"], [[1, "example_duplicate"]]],
    ["a repeat in full-width letters (NFKC)", ["count my calls", "ｃｏｕｎｔ my calls"], [[1, "example_duplicate"]]],
    ["eleven", Array.from({ length: 11 }, (_, i) => `request ${String(i)}`), [[null, "examples_too_many"]]],
  ])("%s", (_, requests, expected) => {
    expect(codes(exampleRequestsProblems(requests))).toEqual(expected);
  });

  it("says which request repeats which", () => {
    expect(exampleRequestsProblems(["a request", "b request", "A REQUEST"])[0]?.message).toBe("example request 3 repeats request 1");
  });
});

describe("exampleRequestLines – a textarea's text as requests", () => {
  it("splits on any line break, trims, and leaves blank lines out", () => {
    expect(exampleRequestLines("  first one \r\n\n\tsecond one\rthird one\n   \n")).toEqual(["first one", "second one", "third one"]);
    expect(exampleRequestLines("")).toEqual([]);
  });
});

describe("ZUpdateTool – exampleRequests", () => {
  it("trims each, takes [] (clear), and carries each rule's code on the request's path", () => {
    expect(ZUpdateTool.parse({ exampleRequests: ["  read the tally  "] })).toEqual({ exampleRequests: ["read the tally"] });
    expect(ZUpdateTool.parse({ exampleRequests: [] })).toEqual({ exampleRequests: [] });
    const refused = ZUpdateTool.safeParse({ exampleRequests: ["read the tally", "read the tally ", "x"] });
    expect(refused.error?.issues.map((i) => [i.path.join("."), (i as { params?: { code?: string } }).params?.code])).toEqual([
      ["exampleRequests.1", "example_duplicate"],
      ["exampleRequests.2", "example_too_short"],
    ]);
    expect(ZUpdateTool.safeParse({ exampleRequests: "read the tally" }).success).toBe(false);
    expect(ZUpdateTool.safeParse({ exampleRequests: [42] }).success).toBe(false);
  });
});
