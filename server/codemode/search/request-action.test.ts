// The request-action model (D196): how a request's features are read, how a tool's action is told from its name,
// what the shipped model predicts, what a request turns down, and how search weighs its first answers (on by default).
import { afterEach, describe, expect, it } from "vitest";
import { realisticTools } from "../fixtures/realistic-tools";
import { createToolIndex } from "../tool-search";
import { OFFICIAL_TOOLS } from "./fixtures/official-tools";
import { nameOf } from "./tool-fields";
import { actionOfName, actionShares, NO_ACTION, predictAction, requestActionsOn, requestFeatures, setRequestActions, turnedDown } from "./request-action";
import { REQUEST_ACTION_MODEL } from "./request-action-data";

const index = createToolIndex([...OFFICIAL_TOOLS, ...realisticTools(500)]);
const features = (text: string) => {
  const read = index.read(text);
  return requestFeatures(read.words, read.text);
};
const predicted = (text: string) => {
  const read = index.read(text);
  return predictAction(read.words, read.text);
};
const likeliest = (text: string) => [...predicted(text)].sort((a, b) => b[1] - a[1])[0]![0];

describe("actionOfName", () => {
  it.each([
    [["abort", "build"], "cancel"],
    [["add", "issu", "comment"], "create"],
    [["list", "issu"], "list"],
    [["geocod"], "none"],
    [[], "none"],
  ])("%j → %s", (terms, action) => {
    expect(actionOfName(terms)).toBe(action);
  });
});

describe("requestFeatures", () => {
  it("reads the words as the ranker does: terms, the first one, the actions of a verb, a question", () => {
    expect(features("Kill run #1287 of the nightly job?")).toEqual(expect.arrayContaining(["w:kill", "f:kill", "a:delete", "fa:delete", "qm"]));
  });

  it("leaves out what a request turns down, and words only inside a path", () => {
    const got = features("don't merge PR 5 in octo/app, just close it");
    expect(got).not.toContain("w:merg");
    expect(got).not.toContain("w:octo");
    expect(got).toContain("w:close");
  });

  it("gives the question word a request starts with, the reading a question implies, a plural noun", () => {
    expect(features("which repositories are there?")).toEqual(expect.arrayContaining(["q:which", "i:list", "plural", "qm"]));
    expect(features("is the checkout API down?")).toContain("i:read");
  });

  it("gives each reading the rules imply: a new status, a numbered item", () => {
    expect(features("set ticket PAY-412 to Done")).toEqual(expect.arrayContaining(["i:status", "i:item", "a:update"]));
  });

  it("gives a first word no ACTIONS line has the actions its relations reach, a noun phrase none", () => {
    expect(features("unlink Alice from Initech in memory")).toEqual(expect.arrayContaining(["f:unlink", "a:delete", "fa:delete"]));
    expect(features("what pull requests are there in octo/app")).not.toContain("a:extract");
  });
});

describe("predictAction with the shipped model", () => {
  it.each([
    ["which repositories are there?", "list"],
    ["trash the file report.pdf", "delete"],
    ["cancel the order", "cancel"],
  ])("%j leans to %s", (text, action) => {
    expect(likeliest(text)).toBe(action);
  });

  it("gives every action it was trained on a probability, summing to 1", () => {
    const p = predicted("send the report to the team");
    expect([...p.keys()]).toEqual(REQUEST_ACTION_MODEL.classes);
    expect([...p.values()].reduce((a, b) => a + b, 0)).toBeCloseTo(1, 9);
  });
});

describe("turnedDown", () => {
  const down = (text: string) => {
    const read = index.read(text);
    return turnedDown(read.words, read.text);
  };
  it.each<[string, string[]]>([
    ["don't merge PR 5, just close it", ["merge"]],
    ["archive the order instead of deleting it", ["delete"]],
    ["close the issue, but never delete it", ["delete"]],
    ["merge PR 5", []],
  ])("%j turns down %j", (text, actions) => {
    expect([...down(text)]).toEqual(actions);
  });

  it("keeps an action the request asks for in another word", () => {
    expect(down("don't remove the file, delete it")).not.toContain("delete");
  });

  it("is what the model's probabilities leave out", () => {
    const p = predicted("don't merge PR 5, just close it");
    expect(p.get("merge")).toBe(0);
    expect([...p.values()].some((v) => v > 0)).toBe(true);
  });
});

describe("actionShares", () => {
  const p = new Map([
    ["get", 0.6],
    ["list", 0.3],
    ["delete", 0.1],
  ]);
  it("is 1 for the likeliest action and the ratio to it for another", () => {
    expect(actionShares(p)("get")).toBe(1);
    expect(actionShares(p)("delete")).toBeCloseTo(1 / 6, 9);
  });
  it("is 1 for an action the model never saw: it cannot say", () => {
    expect(actionShares(p)("translate")).toBe(1);
  });
  it("is 1 for a tool whose name has no action word, whatever the model says of that class", () => {
    expect(actionShares(new Map([...p, [NO_ACTION, 0.01]]))(NO_ACTION)).toBe(1);
  });
  it("takes the likeliest action's scale from actions only, not from none", () => {
    const mostlyNone = new Map([...p, [NO_ACTION, 0.9]]);
    expect(actionShares(mostlyNone)("get")).toBe(1);
    expect(actionShares(mostlyNone)("delete")).toBeCloseTo(1 / 6, 9);
  });
});

describe("search with the model", () => {
  afterEach(() => setRequestActions(true));

  it("is on by default", () => {
    expect(requestActionsOn()).toBe(true);
  });

  it("weighs each of the first answers by its action's share, to the power 0.15", () => {
    const query = "the quarterly report file in the shared drive";
    setRequestActions(false);
    const off = index.rank(query);
    setRequestActions(true);
    const on = new Map(index.rank(query).map((hit) => [hit.name, hit.score]));
    const p = predicted(query);
    const tools = [...OFFICIAL_TOOLS, ...realisticTools(500)];
    const actionOf = new Map(tools.map((tool) => [tool.name, actionOfName(nameOf(tool).nameTerms)]));
    // The first ten are weighed by their arguments' fit either way, so the model alone makes the difference.
    for (const hit of off.slice(0, 10)) {
      expect(on.get(hit.name)! / hit.score, hit.name).toBeCloseTo(actionShares(p)(actionOf.get(hit.name)!) ** 0.15, 9);
    }
    expect(new Set(off.slice(0, 10).map((hit) => actionOf.get(hit.name))).size).toBeGreaterThan(1);
  });
});
