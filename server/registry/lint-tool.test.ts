import type { Tool } from "@modelcontextprotocol/sdk/types.js";
import { describe, expect, it } from "vitest";
import { lintTool, LINT_RULES, type LintRule } from "./lint-tool";

const DESCRIPTION = "Search orders by status and return at most `limit` of them.";
const tight: Tool = {
  name: "search_orders",
  description: DESCRIPTION,
  inputSchema: {
    type: "object",
    properties: {
      status: { type: "string", enum: ["a", "b"], description: "Order status." },
      limit: { type: "integer", minimum: 1, maximum: 100, description: "How many orders to return." },
    },
    required: ["status"],
    additionalProperties: false,
  },
};

/** A tight tool with one extra property. */
function withProperty(name: string, schema: Record<string, unknown>): Tool {
  const tool = structuredClone(tight);
  tool.inputSchema.properties![name] = { description: "Something the tool needs.", ...schema };
  return tool;
}

function withInput(inputSchema: Tool["inputSchema"], description = DESCRIPTION): Tool {
  return { name: "t", description, inputSchema };
}

const rulesOf = (tool: Tool) => lintTool(tool).map((f) => `${f.rule} ${f.path}`);

describe("lintTool", () => {
  it("finds nothing in a tight schema", () => {
    expect(lintTool(tight)).toEqual([]);
  });

  it.each<[string, Tool, LintRule, string, RegExp]>([
    [
      "no description",
      { ...tight, description: undefined },
      "missing-description",
      "description",
      /has no description/,
    ],
    [
      "a blank description",
      { ...tight, description: "   " },
      "missing-description",
      "description",
      /has no description/,
    ],
    [
      "a too-short description",
      { ...tight, description: "Search." },
      "missing-description",
      "description",
      /"Search\." is too short/,
    ],
    [
      "a property without description",
      withProperty("q", { type: "string", maxLength: 9, description: undefined }),
      "param-missing-description",
      "properties.q",
      /`q` has no description/,
    ],
    [
      "a property with a blank description",
      withProperty("q", { type: "string", maxLength: 9, description: " " }),
      "param-missing-description",
      "properties.q",
      /`q` has no description/,
    ],
    [
      "properties but no required",
      withInput({ type: "object", properties: tight.inputSchema.properties, additionalProperties: false }),
      "no-required",
      "",
      /The input has properties but no `required` list/,
    ],
    [
      "no additionalProperties",
      withInput({ ...tight.inputSchema, additionalProperties: undefined }),
      "additional-properties-open",
      "",
      /The input accepts properties it does not declare; add additionalProperties: false/,
    ],
    [
      "additionalProperties: true",
      withInput({ ...tight.inputSchema, additionalProperties: true }),
      "additional-properties-open",
      "",
      /additionalProperties: false/,
    ],
    [
      "a number without bounds",
      withProperty("ratio", { type: "number" }),
      "unbounded-number",
      "properties.ratio",
      /`ratio` is a number without bounds; add minimum and maximum so a model cannot ask for 10\^9 rows/,
    ],
    [
      "an integer without maximum",
      withProperty("limit2", { type: "integer", minimum: 0 }),
      "unbounded-number",
      "properties.limit2",
      /`limit2` is an integer without a maximum/,
    ],
    [
      "an integer without minimum",
      withProperty("offset", { type: "integer", exclusiveMaximum: 10 }),
      "unbounded-number",
      "properties.offset",
      /without a minimum/,
    ],
    [
      "a nullable number",
      withProperty("n", { type: ["number", "null"] }),
      "unbounded-number",
      "properties.n",
      /without bounds/,
    ],
    [
      "a string without bounds",
      withProperty("query", { type: "string" }),
      "unbounded-string",
      "properties.query",
      /`query` is a string of any length; add maxLength/,
    ],
    [
      "a string named state",
      withProperty("state", { type: "string", maxLength: 20 }),
      "string-could-be-enum",
      "properties.state",
      /`state` is a free-form string but its name suggests a fixed set of values/,
    ],
    [
      "a string named orderStatus",
      withProperty("orderStatus", { type: "string", maxLength: 20 }),
      "string-could-be-enum",
      "properties.orderStatus",
      /its name suggests a fixed set of values; use an enum/,
    ],
    [
      "a string named sort_by",
      withProperty("sort_by", { type: "string", maxLength: 20 }),
      "string-could-be-enum",
      "properties.sort_by",
      /its name suggests/,
    ],
    [
      "a string named log_level",
      withProperty("log_level", { type: "string", maxLength: 20 }),
      "string-could-be-enum",
      "properties.log_level",
      /its name suggests/,
    ],
    [
      "a string named direction",
      withProperty("direction", { type: "string", maxLength: 4 }),
      "string-could-be-enum",
      "properties.direction",
      /its name suggests/,
    ],
    [
      "a description with 'one of'",
      withProperty("x", { type: "string", maxLength: 9, description: "One of open, closed." }),
      "string-could-be-enum",
      "properties.x",
      /its description lists allowed values/,
    ],
    [
      "a description with 'either'",
      withProperty("x", { type: "string", maxLength: 9, description: "Either asc or desc." }),
      "string-could-be-enum",
      "properties.x",
      /description/,
    ],
    [
      "a description with 'must be'",
      withProperty("x", { type: "string", maxLength: 9, description: "Must be asc or desc." }),
      "string-could-be-enum",
      "properties.x",
      /description/,
    ],
    [
      "a description with 'allowed values'",
      withProperty("x", { type: "string", maxLength: 9, description: "Allowed values: red, green." }),
      "string-could-be-enum",
      "properties.x",
      /description/,
    ],
    [
      "a description listing a, b or c",
      withProperty("x", { type: "string", maxLength: 9, description: "The colour: red, green or blue." }),
      "string-could-be-enum",
      "properties.x",
      /description/,
    ],
    [
      "a description listing quoted values",
      withProperty("x", { type: "string", maxLength: 9, description: "Use 'asc' or 'desc'." }),
      "string-could-be-enum",
      "properties.x",
      /description/,
    ],
    [
      "an array without maxItems",
      withProperty("ids", { type: "array", items: { type: "integer", minimum: 1, maximum: 9 } }),
      "unbounded-array",
      "properties.ids",
      /`ids` is an array without maxItems; add maxItems/,
    ],
    [
      "an empty schema while the description mentions inputs",
      withInput({ type: "object", additionalProperties: false }, "Get the order with the given id."),
      "empty-schema",
      "",
      /declares no properties/,
    ],
    [
      "nested: a property in an object",
      withProperty("filter", {
        type: "object",
        properties: { q: { type: "string", description: "x" } },
        required: [],
        additionalProperties: false,
      }),
      "unbounded-string",
      "properties.filter.properties.q",
      /`filter.q` is a string of any length/,
    ],
    [
      "nested: an open object",
      withProperty("filter", { type: "object", properties: {}, required: [] }),
      "additional-properties-open",
      "properties.filter",
      /`filter` accepts properties it does not declare/,
    ],
    [
      "nested: no required",
      withProperty("filter", {
        type: "object",
        properties: { a: { type: "boolean", description: "x" } },
        additionalProperties: false,
      }),
      "no-required",
      "properties.filter",
      /`filter` has properties but no `required`/,
    ],
    [
      "nested: array items",
      withProperty("tags", { type: "array", maxItems: 5, items: { type: "string" } }),
      "unbounded-string",
      "properties.tags.items",
      /`tags\[\]` is a string of any length/,
    ],
    [
      "nested: objects in array items",
      withProperty("lines", {
        type: "array",
        maxItems: 5,
        items: {
          type: "object",
          properties: { sku: { type: "string", maxLength: 9 } },
          required: ["sku"],
          additionalProperties: false,
        },
      }),
      "param-missing-description",
      "properties.lines.items.properties.sku",
      /`lines\[\]\.sku` has no description/,
    ],
  ])("flags %s", (_label, tool, rule, path, message) => {
    const findings = lintTool(tool).filter((f) => f.rule === rule && f.path === path);
    expect(findings).toHaveLength(1);
    expect(findings[0]!.message).toMatch(message);
  });

  it.each<[string, Tool, string[]]>([
    ["a string with an enum", withProperty("q", { type: "string", enum: ["x"] }), []],
    ["a string with a const", withProperty("q", { type: "string", const: "x" }), []],
    ["a string with a format", withProperty("q", { type: "string", format: "date" }), []],
    ["a string with a pattern", withProperty("kind", { type: "string", pattern: "^(a|b)$" }), []],
    ["a string with maxLength", withProperty("q", { type: "string", maxLength: 10 }), []],
    ["a number with an enum", withProperty("n", { type: "number", enum: [1, 2] }), []],
    [
      "a number with exclusive bounds",
      withProperty("n", { type: "number", exclusiveMinimum: 0, exclusiveMaximum: 1 }),
      [],
    ],
    ["an array with maxItems", withProperty("ids", { type: "array", maxItems: 3, items: { enum: [1] } }), []],
    ["order_id is not an enum", withProperty("order_id", { type: "string", maxLength: 20 }), []],
    ["type_name is not an enum", withProperty("type_name", { type: "string", maxLength: 20 }), []],
    [
      "'must be a valid' is not an enum hint",
      withProperty("email", { type: "string", format: "email", description: "Must be a valid e-mail address." }),
      [],
    ],
    [
      "'must be at least' is not an enum hint",
      withProperty("name", { type: "string", maxLength: 9, description: "Must be at least 3 characters long." }),
      [],
    ],
    ["an explicit empty required", withInput({ ...tight.inputSchema, required: [] }), []],
    [
      "additionalProperties as a schema (a map)",
      withProperty("labels", { type: "object", additionalProperties: { type: "string", maxLength: 9 } }),
      [],
    ],
    [
      "no inputs and a description that needs none",
      withInput({ type: "object", additionalProperties: false }, "Returns the current server time."),
      [],
    ],
    [
      "a non-object property value is skipped",
      withInput({
        ...tight.inputSchema,
        properties: { ...tight.inputSchema.properties, odd: true as unknown as object },
      }),
      [],
    ],
  ])("stays quiet about %s", (_label, tool, expected) => {
    expect(rulesOf(tool)).toEqual(expected);
  });

  it("uses the documented severities: an error only for a missing description", () => {
    const loose: Tool = {
      name: "loose",
      inputSchema: {
        type: "object",
        properties: { status: { type: "string" }, n: { type: "number" }, ids: { type: "array" } },
      },
    };
    const findings = lintTool(loose);
    expect(new Set(findings.map((f) => f.rule))).toEqual(new Set(LINT_RULES.filter((r) => r !== "empty-schema")));
    for (const finding of findings) {
      expect(finding.severity).toBe(finding.rule === "missing-description" ? "error" : "warning");
    }
    const empty = lintTool(withInput({ type: "object" }, "Find the invoice matching a query."));
    expect(empty.find((f) => f.rule === "empty-schema")?.severity).toBe("warning");
  });

  it("reports findings in schema order so the list is stable", () => {
    const tool = withInput({
      type: "object",
      properties: { b: { type: "string" }, a: { type: "string" } },
      required: [],
      additionalProperties: false,
    });
    expect(rulesOf(tool)).toEqual([
      "param-missing-description properties.b",
      "unbounded-string properties.b",
      "param-missing-description properties.a",
      "unbounded-string properties.a",
    ]);
  });

  it("stays fast on a hostile description", () => {
    const description = `${"a,".repeat(50_000)}`;
    expect(rulesOf(withProperty("x", { type: "string", maxLength: 9, description }))).toEqual([]);
  });

  it("stops walking a hostile depth", () => {
    let schema: Record<string, unknown> = { type: "string" };
    for (let i = 0; i < 5000; i++)
      schema = { type: "object", properties: { a: schema }, required: [], additionalProperties: false };
    const findings = lintTool(withInput(schema as Tool["inputSchema"]));
    expect(findings.every((f) => f.rule === "param-missing-description")).toBe(true);
    expect(findings).toHaveLength(33);
  });
});
