import { describe, expect, it } from "vitest";
import { acknowledgedFilter, MAX_RESOURCE_SUBSCRIPTIONS, parseListenFilter } from "./listen-filter";
import { changedLists, listFingerprint } from "./list-fingerprint";

describe("subscriptions/listen filter", () => {
  it.each([
    [{}, "params.notifications must be an object"],
    [{ notifications: [] }, "params.notifications must be an object"],
    [{ notifications: { toolsListChanged: "yes" } }, "notifications.toolsListChanged must be a boolean"],
    [{ notifications: { resourceSubscriptions: "file:///a" } }, "notifications.resourceSubscriptions must be a list"],
    [{ notifications: { resourceSubscriptions: [""] } }, "notifications.resourceSubscriptions must be a list"],
    [{ notifications: { resourceSubscriptions: ["x".repeat(2049)] } }, "notifications.resourceSubscriptions must be a list"],
    [{ notifications: { resourceSubscriptions: Array.from({ length: MAX_RESOURCE_SUBSCRIPTIONS + 1 }, (_, i) => `u:${String(i)}`) } }, "more than 100"],
  ])("refuses %j", (params, reason) => {
    const out = parseListenFilter(params);
    expect("refused" in out && out.refused).toContain(reason);
  });

  it("opts in field by field, ignores unknown fields, and acknowledges URIs only where updates are served", () => {
    const f = parseListenFilter({ notifications: { toolsListChanged: true, promptsListChanged: false, extra: 1, resourceSubscriptions: ["a:1", "a:1", "b:2"] } });
    expect(f).toEqual({ toolsListChanged: true, promptsListChanged: false, resourcesListChanged: false, resourceSubscriptions: ["a:1", "b:2"] });
    if ("refused" in f) throw new Error("refused");
    expect(acknowledgedFilter(f, true)).toEqual({ toolsListChanged: true, resourceSubscriptions: ["a:1", "b:2"] });
    expect(acknowledgedFilter(f, false)).toEqual({ toolsListChanged: true });
  });
});

describe("list fingerprints", () => {
  const tool = (name: string, description = "d") => ({ name, description, inputSchema: { type: "object" } });
  it("change with a list's content, not its order, and name only the lists that changed", () => {
    const a = listFingerprint({ tools: [tool("x"), tool("y")], prompts: [], resources: [] });
    expect(changedLists(a, listFingerprint({ tools: [tool("y"), tool("x")], prompts: [], resources: [] }))).toEqual([]);
    expect(changedLists(a, listFingerprint({ tools: [tool("x"), tool("y", "new")], prompts: [], resources: [] }))).toEqual(["tools"]);
    expect(changedLists(a, listFingerprint({ tools: [tool("x")], prompts: [["s", { name: "p" }]], resources: [["s", { uri: "u:1" }]] }))).toEqual(["tools", "prompts", "resources"]);
  });
});
