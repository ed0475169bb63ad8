import { describe, expect, it } from "vitest";
import { packumentUrl, pickVersion } from "./npm-registry";

const doc = {
  "dist-tags": { latest: "1.4.0", next: "2.0.0-rc.1" },
  versions: { "1.0.0": {}, "1.4.0": {}, "1.5.0-beta.1": {}, "1.3.9": {}, "2.0.0-rc.1": {}, "0.9.0": {} },
};

describe("pickVersion", () => {
  it.each([
    ["latest", "1.4.0"],
    ["next", "2.0.0-rc.1"],
    ["^1.0.0", "1.4.0"], // the latest tag, when the range allows it
    ["<1.4.0", "1.3.9"],
    ["1.0.0", "1.0.0"],
    ["0.x", "0.9.0"],
    ["^2", null], // a prerelease is not picked by a plain range
    ["^3", null],
    ["beta", null], // an unknown tag
  ])("%s → %s", (range, version) => {
    expect(pickVersion(doc, range)).toBe(version);
  });

  it("does not read inherited names as tags", () => {
    expect(pickVersion(doc, "constructor")).toBeNull();
    expect(pickVersion({}, "latest")).toBeNull();
  });
});

describe("packumentUrl", () => {
  it("escapes a scope's slash as npm does", () => {
    expect(packumentUrl("https://registry.npmjs.org", "@modelcontextprotocol/server-memory")).toBe("https://registry.npmjs.org/@modelcontextprotocol%2fserver-memory");
    expect(packumentUrl("http://r", "plain")).toBe("http://r/plain");
  });
});
