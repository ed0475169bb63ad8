import { describe, expect, it } from "vitest";
import { GatewayError } from "../errors";
import type { DefinitionsDiff, SectionDiff } from "./diff-definitions";
import { nextVersion } from "./next-version";

const none: SectionDiff = { added: [], removed: [], changed: [] };
const emptyDiff: DefinitionsDiff = {
  server: { fields: [] },
  tools: none,
  resources: none,
  resourceTemplates: none,
  prompts: none,
  breaking: false,
  empty: true,
};
const diff = (over: Partial<DefinitionsDiff>): DefinitionsDiff => ({ ...emptyDiff, empty: false, ...over });
const change = (breaking: boolean) => ({
  ...none,
  changed: [{ name: "t", fields: ["inputSchema"], breaking, reasons: [] }],
});

describe("nextVersion", () => {
  it.each<[string, string | null, DefinitionsDiff, string]>([
    ["starts at 1.0.0", null, diff({ tools: { ...none, added: ["a"] } }), "1.0.0"],
    ["starts at 1.0.0 even when empty", null, emptyDiff, "1.0.0"],
    ["keeps the version when nothing changed", "1.2.3", emptyDiff, "1.2.3"],
    ["bumps major on a breaking change", "1.2.3", diff({ tools: change(true), breaking: true }), "2.0.0"],
    ["bumps major on a removal", "1.2.3", diff({ prompts: { ...none, removed: ["p"] }, breaking: true }), "2.0.0"],
    [
      "bumps major when breaking and added",
      "1.2.3",
      diff({ tools: { ...change(true), added: ["b"] }, breaking: true }),
      "2.0.0",
    ],
    ["bumps minor on an added tool", "1.2.3", diff({ tools: { ...none, added: ["b"] } }), "1.3.0"],
    ["bumps minor on an added resource", "1.2.3", diff({ resources: { ...none, added: ["r://x"] } }), "1.3.0"],
    [
      "bumps minor on an added template",
      "1.2.3",
      diff({ resourceTemplates: { ...none, added: ["r://{x}"] } }),
      "1.3.0",
    ],
    [
      "bumps minor on an added prompt with other changes",
      "1.2.3",
      diff({ prompts: { ...change(false), added: ["p"] } }),
      "1.3.0",
    ],
    ["bumps patch on a non-breaking change", "1.2.3", diff({ tools: change(false) }), "1.2.4"],
    ["bumps patch on a server-level change", "1.2.3", diff({ server: { fields: ["serverInfo.version"] } }), "1.2.4"],
    ["carries past 9", "9.9.9", diff({ tools: change(false) }), "9.9.10"],
    ["leaves 0.x behind on a break", "0.4.1", diff({ tools: change(true), breaking: true }), "1.0.0"],
    ["handles large numbers", "10.200.3000", diff({ tools: { ...none, added: ["x"] } }), "10.201.0"],
  ])("%s: %s → %s", (_label, prev, d, expected) => {
    expect(nextVersion(prev, d)).toBe(expected);
  });

  it.each([
    "",
    "1",
    "1.2",
    "1.2.3.4",
    "v1.2.3",
    "1.2.3-beta.1",
    "1.2.3+build",
    "01.2.3",
    "1.02.3",
    " 1.2.3",
    "1.2.3\n",
    "1.2.x",
    "-1.2.3",
    "9007199254740993.0.0",
    "１.２.３",
  ])("throws on the stored version %j", (prev) => {
    expect(() => nextVersion(prev, emptyDiff)).toThrow(GatewayError);
    expect(() => nextVersion(prev, emptyDiff)).toThrow(/is not x\.y\.z/);
  });
});
