import { createHash } from "node:crypto";
import type { Tool } from "@modelcontextprotocol/sdk/types.js";
import { describe, expect, it } from "vitest";
import { canonicalJson, contentHash, definitionsHash, toolHash } from "./content-hash";
import type { UpstreamDefinitions } from "./definitions";

const tool: Tool = {
  name: "search_orders",
  title: "Search orders",
  description: "Search orders by customer and status.",
  inputSchema: {
    type: "object",
    properties: { status: { type: "string", enum: ["open", "closed"] }, limit: { type: "integer", maximum: 100 } },
    required: ["status"],
  },
  outputSchema: { type: "object", properties: { total: { type: "integer" } } },
  annotations: { readOnlyHint: true },
};

const defs: UpstreamDefinitions = {
  serverInfo: { name: "orders", version: "2.1.0" },
  instructions: "Use search_orders first.",
  capabilities: { tools: { listChanged: true }, resources: {} },
  tools: [tool, { name: "cancel_order", inputSchema: { type: "object" } }],
  resources: [
    { uri: "orders://schema", name: "schema" },
    { uri: "orders://about", name: "about" },
  ],
  resourceTemplates: [
    { uriTemplate: "orders://{id}", name: "order" },
    { uriTemplate: "customers://{id}", name: "customer" },
  ],
  prompts: [{ name: "summarize" }, { name: "triage", arguments: [{ name: "id", required: true }] }],
};

describe("canonicalJson", () => {
  it.each<[string, unknown, string]>([
    ["sorts keys", { b: 1, a: 2 }, '{"a":2,"b":1}'],
    ["sorts nested keys", { z: { y: 1, x: [{ d: 1, c: 2 }] } }, '{"z":{"x":[{"c":2,"d":1}],"y":1}}'],
    ["keeps array order", [3, 1, 2], "[3,1,2]"],
    ["drops undefined members like JSON.stringify", { a: undefined, b: null }, '{"b":null}'],
    ["writes undefined array items as null", [undefined], "[null]"],
    ["writes non-finite numbers as null", { n: Number.NaN }, '{"n":null}'],
    ["escapes strings", { 'q"': 'a"b\n' }, '{"q\\"":"a\\"b\\n"}'],
    ["sorts by code unit, not locale", { b: 1, B: 2, a: 3 }, '{"B":2,"a":3,"b":1}'],
    ["writes a bare scalar", "x", '"x"'],
  ])("%s", (_label, value, json) => {
    expect(canonicalJson(value)).toBe(json);
  });

  it("throws on a circular value instead of recursing forever", () => {
    const loop: Record<string, unknown> = {};
    loop.self = loop;
    expect(() => canonicalJson(loop)).toThrow(/circular/);
  });

  it("accepts the same object twice when it is not circular", () => {
    const shared = { a: 1 };
    expect(canonicalJson({ x: shared, y: shared })).toBe('{"x":{"a":1},"y":{"a":1}}');
  });
});

describe("contentHash", () => {
  it("is the SHA-256 hex of the canonical JSON", () => {
    expect(contentHash({ b: 1, a: 2 })).toBe(createHash("sha256").update('{"a":2,"b":1}').digest("hex"));
  });

  it.each<[string, unknown, unknown]>([
    ["top-level keys", { a: 1, b: 2 }, { b: 2, a: 1 }],
    ["nested keys", { x: { a: 1, b: [{ c: 1, d: 2 }] } }, { x: { b: [{ d: 2, c: 1 }], a: 1 } }],
    ["an undefined member", { a: 1, b: undefined }, { a: 1 }],
  ])("ignores %s", (_label, one, other) => {
    expect(contentHash(one)).toBe(contentHash(other));
  });

  it.each<[string, unknown, unknown]>([
    ["array order", [1, 2], [2, 1]],
    ["a value", { a: 1 }, { a: 2 }],
    ["a type", { a: 1 }, { a: "1" }],
    ["null versus missing", { a: null }, {}],
  ])("changes with %s", (_label, one, other) => {
    expect(contentHash(one)).not.toBe(contentHash(other));
  });
});

describe("toolHash", () => {
  it("ignores the key order of the tool and its schemas", () => {
    const reordered: Tool = {
      annotations: { readOnlyHint: true },
      outputSchema: { properties: { total: { type: "integer" } }, type: "object" },
      inputSchema: {
        required: ["status"],
        properties: { limit: { maximum: 100, type: "integer" }, status: { enum: ["open", "closed"], type: "string" } },
        type: "object",
      },
      description: "Search orders by customer and status.",
      title: "Search orders",
      name: "search_orders",
    };
    expect(toolHash(reordered)).toBe(toolHash(tool));
    expect(toolHash(tool)).toMatch(/^[0-9a-f]{64}$/);
  });

  it.each<[string, (t: Tool) => void]>([
    ["the name", (t) => (t.name = "search_order")],
    ["the title", (t) => (t.title = "Find orders")],
    ["the description", (t) => (t.description = "Search orders.")],
    ["a property's schema", (t) => (t.inputSchema.properties!.limit = { type: "integer", maximum: 50 })],
    ["a new property", (t) => (t.inputSchema.properties!.q = { type: "string" })],
    ["required", (t) => (t.inputSchema.required = [])],
    ["additionalProperties", (t) => (t.inputSchema.additionalProperties = false)],
    ["enum order", (t) => (t.inputSchema.properties!.status = { type: "string", enum: ["closed", "open"] })],
    ["the output schema", (t) => (t.outputSchema = undefined)],
    ["an annotation", (t) => (t.annotations = { readOnlyHint: false })],
    ["execution", (t) => (t.execution = { taskSupport: "optional" })],
    ["_meta", (t) => (t._meta = { owner: "ops" })],
  ])("changes when %s changes", (_label, change) => {
    const changed = structuredClone(tool);
    change(changed);
    expect(toolHash(changed)).not.toBe(toolHash(tool));
  });
});

describe("definitionsHash", () => {
  it("ignores the order of tools, resources, templates and prompts", () => {
    const shuffled: UpstreamDefinitions = {
      ...defs,
      tools: [...defs.tools].reverse(),
      resources: [...defs.resources].reverse(),
      resourceTemplates: [...defs.resourceTemplates].reverse(),
      prompts: [...defs.prompts].reverse(),
      capabilities: { resources: {}, tools: { listChanged: true } },
    };
    expect(definitionsHash(shuffled)).toBe(definitionsHash(defs));
  });

  it("ignores the order of entries that share a name", () => {
    const twins = (order: number[]) => ({
      ...defs,
      tools: order.map((n) => ({ name: "dup", description: `copy ${n}`, inputSchema: { type: "object" as const } })),
    });
    expect(definitionsHash(twins([1, 2]))).toBe(definitionsHash(twins([2, 1])));
  });

  it.each<[string, (d: UpstreamDefinitions) => void]>([
    ["serverInfo.version", (d) => (d.serverInfo.version = "2.1.1")],
    ["serverInfo.title", (d) => (d.serverInfo.title = "Orders")],
    ["instructions", (d) => (d.instructions = undefined)],
    ["capabilities", (d) => (d.capabilities = { tools: {} })],
    ["a tool", (d) => (d.tools[1]!.description = "Cancel an order.")],
    ["a removed tool", (d) => d.tools.pop()],
    ["a resource", (d) => (d.resources[0]!.mimeType = "application/json")],
    ["a resource template", (d) => (d.resourceTemplates[0]!.description = "One order.")],
    ["a prompt", (d) => (d.prompts[1]!.arguments![0]!.required = false)],
  ])("changes when %s changes", (_label, change) => {
    const changed = structuredClone(defs);
    change(changed);
    expect(definitionsHash(changed)).not.toBe(definitionsHash(defs));
  });
});
