import { describe, expect, it } from "vitest";
import { exampleProgram, toolAccessors } from "./example";

const DECLARATIONS = [
  "/** What a tool without an output schema resolves to (MCP CallToolResult). */",
  "type CallToolResult = {",
  "  content: Array<{ type: \"text\"; text: string }>;",
  "};",
  "",
  "declare const tools: {",
  '  "my-server": {',
  '    "do.thing"(args?: { n?: number }): Promise<CallToolResult>;',
  "  };",
  "  orders: {",
  "    create_order(args: { sku: string }): Promise<CallToolResult>;",
  "    /** Delete an order. */",
  "    delete_order(args: {",
  "      order_id: string;",
  "    }): Promise<{ deleted: boolean }>;",
  "  };",
  "};",
  "",
  "declare const workspace: {",
  "  get(key: string): Promise<unknown>;",
  "};",
].join("\n");

describe("toolAccessors", () => {
  it("reads each tool of the tools block, quoting what is not an identifier", () => {
    expect(toolAccessors(DECLARATIONS)).toEqual([
      'tools["my-server"]["do.thing"]',
      "tools.orders.create_order",
      "tools.orders.delete_order",
    ]);
  });

  it("answers nothing for declarations without tools", () => {
    expect(toolAccessors("declare const workspace: {};")).toEqual([]);
  });
});

describe("exampleProgram", () => {
  it("lists the tools in a comment and returns a value", () => {
    const text = exampleProgram(["tools.orders.create_order"]);
    expect(text).toContain("//   await tools.orders.create_order({ … })");
    expect(text).toContain("return { toolsOnOffer: 1, workspaceKeys: keys };");
  });

  it("caps the list and says how many more there are", () => {
    const text = exampleProgram(Array.from({ length: 10 }, (_, i) => `tools.s.t${i}`));
    expect(text).toContain("tools.s.t7");
    expect(text).not.toContain("tools.s.t8");
    expect(text).toContain("… and 2 more");
  });
});
