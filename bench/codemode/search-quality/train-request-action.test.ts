// The request-action model's trainer (D196): the shipped module is what it writes from the example requests, and
// it learns an action from requests alone, for a verb and for a question's shape.
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { predictAction } from "../../../server/codemode/search/request-action";
import { createToolIndex } from "../../../server/codemode/tool-search";
import { loadQueries, loadTools, toolKey, type DatasetTool } from "./dataset";
import { loadExampleRequests, queriesRepeatedBy } from "./mine-relations";
import { toSearchable } from "./searchable-tools";
import { OUTPUT, renderModule, samplesOf, train } from "./train-request-action";

// A second round of requests (D196), six per tool in six set forms, written blind to every query split like the
// first; kept for the model's next form, not trained on by the shipped one.
describe("example-requests-2.jsonl", () => {
  const second = readFileSync(path.join(import.meta.dirname, "example-requests-2.jsonl"), "utf8")
    .split("\n")
    .filter((line) => line.trim().length > 0)
    .map((line) => JSON.parse(line) as { tool: string; queries: string[] });

  it("has six requests for every tool of the catalog, once each (five where one repeated a query)", () => {
    expect(second.map((entry) => entry.tool).sort()).toEqual(loadTools().map(toolKey).sort());
    expect(second.filter((entry) => entry.queries.length !== 6).map((entry) => [entry.tool, entry.queries.length])).toEqual([["languagetool/check_grammar", 5]]);
  });

  it("holds no query of any split", () => {
    expect(queriesRepeatedBy(second, loadQueries())).toEqual([]);
  });
});

describe("train-request-action", () => {
  it("writes the shipped module (server/codemode/search/request-action-data.ts)", () => {
    expect(readFileSync(OUTPUT, "utf8")).toBe(renderModule(train(samplesOf(loadTools(), loadExampleRequests()))));
  }, 60_000);

  const tool = (name: string): DatasetTool => ({ server: "ci", name, description: `${name.replace(/_/g, " ")}.`, inputSchema: { type: "object" } });
  const tools = [tool("abort_build"), tool("list_builds"), tool("get_build")];
  const examples = [
    { tool: "ci/abort_build", queries: ["kill build 7", "kill the stuck build", "kill that build now", "kill build 12 please"] },
    { tool: "ci/list_builds", queries: ["which builds ran today?", "which builds failed?", "which builds are queued?", "which builds are there?"] },
    { tool: "ci/get_build", queries: ["show build 7", "show me build 12", "show the build details", "show build 99 please"] },
  ];

  it("makes one sample per request, labelled with its tool's action, keeping features of three requests or more", () => {
    const samples = samplesOf(tools, examples);
    expect(samples).toHaveLength(12);
    expect(samples.filter((sample) => sample.action === "cancel")).toHaveLength(4);
    expect(samples[0]!.features).toContain("w:kill");
    expect(samples.flatMap((sample) => sample.features)).not.toContain("w:stuck");
  });

  it("learns what a verb and a question ask for", () => {
    const model = train(samplesOf(tools, examples));
    expect(model.classes).toEqual(["cancel", "get", "list"]);
    const index = createToolIndex(tools.map((t) => toSearchable(t)));
    const likeliest = (text: string) => {
      const read = index.read(text);
      return [...predictAction(read.words, read.text, model)].sort((a, b) => b[1] - a[1])[0]![0];
    };
    expect(likeliest("kill build 40")).toBe("cancel");
    expect(likeliest("which builds broke?")).toBe("list");
    expect(likeliest("show build 40")).toBe("get");
  });
});
