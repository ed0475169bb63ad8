// The mined thesaurus layer (D174): the shipped module is what the miner writes from the example requests, the
// requests are blind to the queries, and the miner relates a word to the objects it goes with across tools.
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { loadQueries, loadTools, toolKey, type DatasetTool } from "./dataset";
import { loadExampleRequests, mineRelations, OUTPUT, queriesRepeatedBy, renderModule } from "./mine-relations";

const tools = loadTools();
const examples = loadExampleRequests();

describe("example requests", () => {
  it("has eight requests for every tool of the catalog, once each (seven where one repeated a query)", () => {
    expect(examples.map((example) => example.tool).sort()).toEqual(tools.map(toolKey).sort());
    for (const example of examples) expect(example.queries.length, example.tool).toBeGreaterThanOrEqual(7);
    expect(examples.filter((example) => example.queries.length !== 8)).toHaveLength(3);
  });

  it("holds no query of any split", () => {
    expect(queriesRepeatedBy(examples, loadQueries())).toEqual([]);
  });
});

describe("mineRelations", () => {
  it("writes the shipped module (server/codemode/search/thesaurus-mined.ts)", () => {
    expect(readFileSync(OUTPUT, "utf8")).toBe(renderModule(mineRelations(tools, examples)));
  }, 20_000);

  const tool = (server: string, name: string, description: string): DatasetTool => ({
    server,
    name,
    description,
    inputSchema: { type: "object" },
  });
  const catalog = [
    tool("shop", "list_disputes", "List disputes"),
    tool("shop", "get_dispute", "Get one dispute"),
    tool("maps", "geocode", "Address to coordinates"),
    tool("maps", "reverse_geocode", "Coordinates to address"),
    tool("chat", "send_message", "Send a message"),
  ];

  it("relates a word a tool's text lacks to the objects of the tools it is asked of, not to their actions", () => {
    const lines = mineRelations(catalog, [
      { tool: "shop/list_disputes", queries: ["which chargebacks came in", "any chargebacks this week"] },
      { tool: "shop/get_dispute", queries: ["the chargeback on order 7"] },
    ]);
    expect(lines).toEqual(["chargebacks > dispute"]);
  });

  it("leaves out a word asked once, and a word the tool's own text has", () => {
    const lines = mineRelations(catalog, [
      { tool: "chat/send_message", queries: ["ping Ana", "send Bo a message"] },
      { tool: "maps/geocode", queries: ["where is the Louvre"] },
    ]);
    expect(lines).toEqual([]);
  });

  it("relates a word to the head, not to a modifier met only beside it", () => {
    const lines = mineRelations(catalog, [
      { tool: "maps/geocode", queries: ["lat of the Louvre"] },
      { tool: "maps/reverse_geocode", queries: ["street at this lat", "town at lat 48.8"] },
    ]);
    expect(lines).toEqual(["lat > geocode"]);
  });

  it("refuses requests for a tool the catalog does not have", () => {
    expect(() => mineRelations(catalog, [{ tool: "shop/refund", queries: ["give it back"] }])).toThrow(/unknown tool/);
  });
});
