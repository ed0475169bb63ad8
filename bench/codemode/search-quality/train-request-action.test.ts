// The request-action model's trainer (D196): the shipped module is what it writes from the example requests, and
// it learns an action from requests alone, for a verb and for a question's shape.
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { predictAction } from "../../../server/codemode/search/request-action";
import { createToolIndex } from "../../../server/codemode/tool-search";
import { loadTools, type DatasetTool } from "./dataset";
import { loadExampleRequests } from "./mine-relations";
import { toSearchable } from "./searchable-tools";
import { OUTPUT, renderModule, samplesOf, train } from "./train-request-action";

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
