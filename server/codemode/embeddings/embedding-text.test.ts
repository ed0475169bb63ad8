import { describe, expect, it } from "vitest";
import type { SearchableTool } from "../declarations";
import { embeddingText, textHash } from "./embedding-text";

const geocode: SearchableTool = {
  name: "google-maps__maps_geocode",
  server: "google-maps",
  tool: "maps_geocode",
  title: "Geocode",
  description: "Convert an address\n  into geographic coordinates",
  inputSchema: { type: "object", properties: { address: { type: "string" }, regionCode: { type: "string" } } },
};

describe("embeddingText", () => {
  it("reads like a sentence: server and tool words, title, description (whitespace collapsed), argument words", () => {
    expect(embeddingText(geocode)).toBe(
      "google maps: maps geocode. Geocode. Convert an address into geographic coordinates. arguments: address, region code",
    );
  });

  it("leaves out what a tool does not have, and is bounded", () => {
    expect(embeddingText({ name: "s__t", server: "s", tool: "t", inputSchema: {} })).toBe("s: t");
    const long = embeddingText({ ...geocode, description: "word ".repeat(2000) });
    expect(long.length).toBe(1500);
  });

  it("changes its hash with the definition (a new version is embedded again), not otherwise", () => {
    expect(textHash(embeddingText(geocode))).toBe(textHash(embeddingText({ ...geocode })));
    expect(textHash(embeddingText({ ...geocode, description: "Turn an address into lat/long" }))).not.toBe(textHash(embeddingText(geocode)));
    expect(textHash("x")).toMatch(/^[0-9a-f]{64}$/);
  });
});
