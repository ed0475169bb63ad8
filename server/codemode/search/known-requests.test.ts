import { afterEach, describe, expect, it } from "vitest";
import type { SearchableTool } from "../tool-search";
import { definitionFingerprint, knownRequestsFor, setKnownRequests } from "./known-requests";
import { toFields } from "./tool-fields";

// @modelcontextprotocol/server-google-maps's geocoding tool, as that package defines it.
const geocode: SearchableTool = {
  name: "maps__maps_geocode",
  server: "maps",
  tool: "maps_geocode",
  description: "Convert an address into geographic coordinates",
  inputSchema: { type: "object", properties: { address: { type: "string", description: "The address to geocode" } }, required: ["address"] },
};

describe("knownRequestsFor – the requests that ship for a well-known package's tool", () => {
  afterEach(() => setKnownRequests(true));

  it("applies to the exact definition they were written for, whatever the server is called", () => {
    expect(definitionFingerprint(geocode)).toMatch(/^[0-9a-f]{16}$/);
    expect(knownRequestsFor(geocode).length).toBeGreaterThanOrEqual(7);
    const renamed: SearchableTool = { ...geocode, name: "geo__maps_geocode", server: "geo" };
    expect(knownRequestsFor(renamed)).toEqual(knownRequestsFor(geocode));
  });

  it("does not apply to another wording of the description, another name, or a tool of no known package", () => {
    expect(knownRequestsFor({ ...geocode, description: "Convert an address into coordinates" })).toEqual([]);
    expect(knownRequestsFor({ ...geocode, tool: "geocode" })).toEqual([]);
    expect(knownRequestsFor({ tool: "list_orders", description: "List orders" })).toEqual([]);
  });

  it("gives way to an admin's requests, and the bench's switch leaves them out", () => {
    expect(toFields(geocode).knownRequests.length).toBeGreaterThan(0);
    expect(toFields({ ...geocode, exampleRequests: ["find the spot for this street"] })).toMatchObject({ knownRequests: [], examples: ["find", "spot", "street"] });
    setKnownRequests(false);
    expect(toFields(geocode).knownRequests).toEqual([]);
  });
});
