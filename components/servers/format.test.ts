import { describe, expect, it } from "vitest";
import { launchSummary, shortIntegrity, startsProcess } from "./format";

describe("shortIntegrity", () => {
  it.each([
    [
      "sha512-8h2Lr2vQ8JkR1YqL9kXb3n2mYQ0G4o6H3Cw0Z1e5Jp7tX2cV9bN4sA6dF8gH0jK2lM4nP6qR8sT0uV2wX4yZ6A==",
      "sha512-8h2Lr2vQ…yZ6A==",
    ],
    ["sha256-short", "sha256-short"],
    ["0123456789abcdef0123456789", "01234567…456789"],
  ])("%s → %s", (full, short) => {
    expect(shortIntegrity(full)).toBe(short);
  });
});

describe("startsProcess", () => {
  it.each([
    ["stdio", true],
    ["npm", true],
    ["pypi", true],
    ["http", false],
    ["sse", false],
  ] as const)("%s → %s", (transport, starts) => {
    expect(startsProcess(transport)).toBe(starts);
  });
});

describe("launchSummary", () => {
  it("quotes arguments with spaces and shows a URL for remote servers", () => {
    expect(launchSummary({ transport: "stdio", command: "node", args: ["/srv/my server.js"], url: null })).toBe(
      'node "/srv/my server.js"',
    );
    expect(launchSummary({ transport: "http", command: null, args: [], url: "https://x.test/mcp" })).toBe(
      "https://x.test/mcp",
    );
  });
});
