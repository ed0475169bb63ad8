import { describe, expect, it } from "vitest";
import { resourceMatches } from "./discover-authorization-server";

describe("resourceMatches (RFC 9728 §3.3: the metadata's resource must be the server's own)", () => {
  it.each([
    ["https://up.test/mcp", "https://up.test/mcp", true],
    ["https://up.test/mcp/", "https://up.test/mcp", true],
    ["https://up.test", "https://up.test/mcp", true],
    ["https://up.test/", "https://up.test/mcp/x", true],
    ["https://up.test/mcp", "https://up.test/mcp/sub", true],
    ["https://up.test/mc", "https://up.test/mcp", false],
    ["https://up.test/other", "https://up.test/mcp", false],
    ["https://evil.test/mcp", "https://up.test/mcp", false],
    ["http://up.test/mcp", "https://up.test/mcp", false],
    ["https://up.test:8443/mcp", "https://up.test/mcp", false],
    ["not a url", "https://up.test/mcp", false],
  ])("%s for %s → %s", (resource, server, expected) => {
    expect(resourceMatches(resource, server)).toBe(expected);
  });
});
