import { autocompletion, CompletionContext, type CompletionResult } from "@codemirror/autocomplete";
import { EditorState } from "@codemirror/state";
import { describe, expect, it } from "vitest";
import { declarationCompletions, pathSegments } from "./declaration-completions";
import { declarationTree } from "./declaration-tree";

const DECLARATIONS = [
  "declare const tools: {",
  '  "my-server": {',
  '    "do.thing"(args?: { n?: number }): Promise<CallToolResult>;',
  "  };",
  "  orders: {",
  "    /** Create an order. */",
  "    create_order(args: { sku: string }): Promise<CallToolResult>;",
  "    /**",
  "     * Delete an order.",
  "     * It cannot be undone.",
  "     */",
  "    delete_order(args: {",
  "      order_id: string;",
  "      nested: {",
  "        deep: string;",
  "      };",
  "    }): Promise<{ deleted: boolean }>;",
  "  };",
  "};",
  "",
  "declare const workspace: {",
  "  get(key: string): Promise<unknown>;",
  "  list(prefix?: string): Promise<string[]>;",
  "};",
].join("\n");

const roots = declarationTree(DECLARATIONS);
const source = declarationCompletions(() => roots);

function complete(doc: string, explicit = false): { from: number; labels: string[] } | null {
  const state = EditorState.create({ doc, extensions: [autocompletion()] });
  const result = source(new CompletionContext(state, doc.length, explicit)) as CompletionResult | null;
  return result && { from: result.from, labels: result.options.map((o) => o.label) };
}

describe("declarationTree", () => {
  it("reads the blocks, servers, tools (multi-line signatures included) and their doc comments", () => {
    expect(roots.map((r) => r.name)).toEqual(["tools", "workspace"]);
    const [myServer, orders] = roots[0]!.children;
    expect(myServer).toMatchObject({ name: "my-server", kind: "object" });
    expect(myServer!.children.map((c) => c.name)).toEqual(["do.thing"]);
    expect(orders!.children.map((c) => [c.name, c.kind, c.doc])).toEqual([
      ["create_order", "method", "Create an order."],
      ["delete_order", "method", "Delete an order.\nIt cannot be undone."],
    ]);
    expect(roots[1]!.children.map((c) => c.name)).toEqual(["get", "list"]);
  });
});

describe("declarationCompletions", () => {
  it.each<[string, string, string[] | null]>([
    ["tools. offers the server slugs", "const x = tools.", ["my-server", "orders"]],
    ["a server offers its tools", "await tools.orders.", ["create_order", "delete_order"]],
    ["a quoted server offers its tools", 'await tools["my-server"].', ["do.thing"]],
    ["a partial word keeps the list (filtered by the editor)", "await tools.orders.cre", ["create_order", "delete_order"]],
    ["workspace. offers its methods", "workspace.", ["get", "list"]],
    ["a word offers the top-level names", "wor", ["tools", "workspace"]],
    ["a method has no members", "tools.orders.create_order.", null],
    ["an unknown object offers nothing", "foo.", null],
    ["something else's member named tools offers nothing", "foo.tools.", null],
  ])("%s", (_, doc, labels) => {
    expect(complete(doc)?.labels ?? null).toEqual(labels);
  });

  it("replaces the word being typed", () => {
    expect(complete("tools.ord")!.from).toBe("tools.".length);
  });

  it("offers nothing on an empty spot unless asked", () => {
    expect(complete("")).toBeNull();
    expect(complete("", true)!.labels).toEqual(["tools", "workspace"]);
  });

  it("reads quoted path segments", () => {
    expect(pathSegments('tools["my-server"].x')).toEqual(["tools", "my-server", "x"]);
  });
});
