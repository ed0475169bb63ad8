import { describe, expect, it } from "vitest";
import { consentVirtualServer } from "./consent-virtual-server";

describe("consentVirtualServer", () => {
  it.each([
    [null, undefined, undefined],
    ["https://gw.test/mcp", undefined, undefined],
    ["https://gw.test/mcp", "desk", "desk"],
    ["https://gw.test/mcp/v/desk", undefined, "desk"],
    ["https://gw.test/mcp/v/desk", "desk", "desk"],
    ["https://gw.test/mcp/s/desk", undefined, undefined],
    ["not a url", undefined, undefined],
  ])("resource %s, chosen %s → %s", (resource, chosen, scoped) => {
    expect(consentVirtualServer(resource, chosen)).toBe(scoped);
  });

  it("refuses a choice other than the virtual server the client's resource names", () => {
    expect(() => consentVirtualServer("https://gw.test/mcp/v/desk", "other")).toThrow(expect.objectContaining({ code: "validation_failed" }));
  });
});
