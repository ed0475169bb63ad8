// The dataset's invariants: size, uniqueness, one existing expected tool per query, a half/half split and
// mostly non-lexical queries, with the lexical flag as computed, not as written.
import { describe, expect, it } from "vitest";
import { loadQueries, loadTools, toolKey } from "./dataset";
import { DEV_QUERY_SOURCE } from "./dev-query-source";
import { DEV2_QUERY_SOURCE } from "./dev2-query-source";
import { DEV3_QUERY_SOURCE } from "./dev3-query-source";
import { sharesWord } from "./lexical-overlap";
import { QUERY_SOURCE } from "./query-source";

const tools = loadTools();
const queries = loadQueries();
const byKey = new Map(tools.map((tool) => [toolKey(tool), tool]));

describe("search-quality dataset", () => {
  it("has at least 500 tools, each server/name once, each with an object input schema", () => {
    expect(tools.length).toBeGreaterThanOrEqual(500);
    expect(byKey.size).toBe(tools.length);
    for (const tool of tools) {
      expect(tool.server).toMatch(/^[a-z0-9][a-z0-9-]*$/);
      expect(tool.inputSchema.type).toBe("object");
    }
  });

  it("has at least 90 real tools captured from at least 10 servers", () => {
    const real = tools.filter((tool) => tool.source !== undefined);
    expect(real.length).toBeGreaterThanOrEqual(90);
    expect(new Set(real.map((tool) => tool.server)).size).toBeGreaterThanOrEqual(10);
  });

  it("has at least 150 queries with unique ids and unique texts", () => {
    expect(queries.length).toBeGreaterThanOrEqual(150);
    expect(new Set(queries.map((query) => query.id)).size).toBe(queries.length);
    expect(new Set(queries.map((query) => query.query.trim().toLowerCase())).size).toBe(queries.length);
  });

  it("names an existing tool as every query's answer", () => {
    const missing = queries.filter((query) => !byKey.has(query.expected)).map((query) => query.id);
    expect(missing).toEqual([]);
  });

  it("splits the first queries half tune, half held out (±2), and the dev queries are a split of their own", () => {
    const heldout = queries.filter((query) => query.split === "heldout").length;
    const tune = queries.filter((query) => query.split === "tune").length;
    const dev = queries.filter((query) => query.split === "dev");
    expect(heldout + tune).toBe(QUERY_SOURCE.length);
    expect(Math.abs(heldout - tune)).toBeLessThanOrEqual(2);
    expect(dev.map((query) => query.id)).toEqual(DEV_QUERY_SOURCE.map(([id]) => id));
    const dev2 = queries.filter((query) => query.split === "dev2");
    expect(dev2.map((query) => query.id)).toEqual(DEV2_QUERY_SOURCE.map(([id]) => id));
  });

  it("asks dev2 only about tools no dev query is for, and dev3 about the rest", () => {
    const devTools = new Set(DEV_QUERY_SOURCE.map(([, , expected]) => expected));
    expect(DEV2_QUERY_SOURCE.filter(([, , expected]) => devTools.has(expected)).map(([id]) => id)).toEqual([]);
    const asked = new Set([...devTools, ...DEV2_QUERY_SOURCE.map(([, , expected]) => expected)]);
    expect(DEV3_QUERY_SOURCE.filter(([, , expected]) => asked.has(expected)).map(([id]) => id)).toEqual([]);
    expect(asked.size + DEV3_QUERY_SOURCE.length).toBe(tools.length);
    expect(queries.filter((query) => query.split === "dev3").map((query) => query.id)).toEqual(DEV3_QUERY_SOURCE.map(([id]) => id));
  });

  it("marks lexical overlap as computed; at least half of the first queries and a third of the dev ones share no word with their tool", () => {
    const wrong = queries
      .filter((query) => query.lexical !== sharesWord(query.query, byKey.get(query.expected)!))
      .map((query) => query.id);
    expect(wrong).toEqual([]);
    const first = queries.filter((query) => query.split === "tune" || query.split === "heldout");
    expect(first.filter((query) => !query.lexical).length).toBeGreaterThanOrEqual(first.length / 2);
    const dev = queries.filter((query) => query.split === "dev");
    expect(dev.filter((query) => !query.lexical).length).toBeGreaterThanOrEqual(dev.length / 3);
    const heldout = queries.filter((query) => query.split === "heldout");
    expect(heldout.filter((query) => !query.lexical).length).toBeGreaterThanOrEqual(heldout.length / 3);
  });
});

describe("sharesWord", () => {
  it.each([
    [
      "what are the lat/long of 1600 Amphitheatre Parkway",
      "maps_geocode",
      "Convert an address into geographic coordinates",
      false,
    ],
    ["geocode this address", "maps_geocode", "Convert an address into geographic coordinates", true],
    ["who's away next week", "whos_out", "List who is out of office", false],
    ["list the issues", "list_issues", "", true],
    ["ping Maria", "whatsapp_send", "Send a WhatsApp message", false],
    ["post on WhatsApp", "send", "Send a WhatsApp message", true],
  ])("%s vs %s → %s", (query, name, description, expected) => {
    expect(sharesWord(query, { name, description })).toBe(expected);
  });
});
