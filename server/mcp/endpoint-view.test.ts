import type { Tool } from "@modelcontextprotocol/sdk/types.js";
import { describe, expect, it } from "vitest";
import type { VirtualServerRow } from "../virtual/virtual-server-dto";
import { virtualViewOf } from "../virtual/virtual-view";
import { aggregateView, virtualView } from "./endpoint-view";

const member = (kind: "TOOL" | "PROMPT" | "RESOURCE", serverSlug: string, name: string, exposedName: string | null = null, description: string | null = null, position = 0) => ({
  id: `${kind}${serverSlug}${name}`,
  virtualServerId: "v1",
  kind,
  serverSlug,
  name,
  exposedName,
  description,
  position,
});

const row: VirtualServerRow = {
  id: "v1",
  name: "desk",
  description: "",
  instructions: "",
  createdAt: new Date(0),
  updatedAt: new Date(0),
  members: [member("TOOL", "a", "echo", "say", "Says it."), member("TOOL", "b", "echo"), member("PROMPT", "a", "greet", "hello"), member("RESOURCE", "a", "file:///x", null, "X"), member("TOOL", "a", "bad name")],
};
const tool = (name: string): Tool => ({ name, description: `upstream ${name}`, inputSchema: { type: "object" } });

describe("virtualView", () => {
  const view = virtualView(virtualViewOf(row), []);

  it("exposes members only, renamed and described as set, and nothing else", () => {
    expect(view.naming.expose([tool("a__echo"), tool("b__echo"), tool("a__other"), tool("c__echo")])).toEqual([
      { name: "say", description: "Says it.", inputSchema: { type: "object" } },
      { name: "echo", description: "upstream b__echo", inputSchema: { type: "object" } },
    ]);
  });

  it.each([
    ["say", "a__echo", undefined],
    ["echo", "b__echo", undefined],
    ["a__echo", "", "unknown"],
    ["a__other", "", "unknown"],
    ["bad name", "", "unknown"],
  ])("%s → registry name %j", (name, registryName, refused) => {
    expect(view.naming.registryName(name)).toBe(registryName);
    expect(view.naming.refuseDirect?.(name) === undefined ? undefined : "unknown").toBe(refused);
  });

  it("prompts by their new names, resources of their own server only, no templates, a default instruction", () => {
    expect(view.prompt("a__greet")).toEqual({ name: "hello" });
    expect(view.prompt("b__greet")).toBeNull();
    expect(view.promptGatewayName("hello")).toBe("a__greet");
    expect(view.promptGatewayName("a__greet")).toBeNull();
    expect(view.resource("a", "file:///x")).toEqual({ description: "X" });
    expect(view.resource("b", "file:///x")).toBeNull();
    expect(view.templates).toBe(false);
    expect(view.instructions).toContain("desk");
  });
});

describe("aggregateView", () => {
  it("keeps gateway names and refuses the gateway's own tools by their prefixed names", () => {
    const view = aggregateView([]);
    expect(view.naming.expose([tool("a__echo")]).map((t) => t.name)).toEqual(["a__echo"]);
    expect(view.naming.refuseDirect?.("portcullis__get_task_status")).toMatch(/bare names/);
    expect(view.resource("a", "x")).toEqual({});
  });
});
