import { describe, expect, it } from "vitest";
import { schemaBreakingChanges } from "./schema-breaking-changes";

describe("schemaBreakingChanges", () => {
  it.each<[string, unknown, unknown, string[]]>([
    ["identical schemas", { type: "string" }, { type: "string" }, []],
    ["true to false", true, false, ["the input no longer accepts any value"]],
    ["false to anything", false, { type: "string" }, []],
    ["anything to true", { type: "string" }, true, []],
    ["a schema dropped entirely", { type: "string" }, undefined, []],
    ["no schema to a typed one", undefined, { type: "object" }, ["the input is now restricted to type object"]],
    ["a new const", { type: "string" }, { type: "string", const: "x" }, ['the input is now fixed to "x"']],
    ["a const that equals the only enum value", { enum: ["x"] }, { const: "x" }, []],
    [
      "a new multipleOf",
      { type: "number" },
      { type: "number", multipleOf: 5 },
      ["the input now has to be a multiple of 5"],
    ],
    ["a looser multipleOf", { type: "number", multipleOf: 10 }, { type: "number", multipleOf: 5 }, []],
    ["uniqueItems", { type: "array" }, { type: "array", uniqueItems: true }, ["the input now requires unique items"]],
    [
      "a raised minItems",
      { type: "array", minItems: 1 },
      { type: "array", minItems: 2 },
      ["the input minItems raised from 1 to 2"],
    ],
    [
      "a raised exclusiveMinimum",
      { exclusiveMinimum: 0 },
      { exclusiveMinimum: 1 },
      ["the input exclusiveMinimum raised from 0 to 1"],
    ],
    [
      "additionalProperties narrowed to a schema",
      { type: "object" },
      { type: "object", additionalProperties: { type: "string" } },
      ["`input.*` is now restricted to type string"],
    ],
    [
      "a changed $defs entry",
      { $defs: { id: { type: "string" } } },
      { $defs: { id: { type: "integer" } } },
      ["`#/$defs/id` changed type from string to integer"],
    ],
    [
      "a changed $ref",
      { $ref: "#/$defs/a" },
      { $ref: "#/$defs/b" },
      ["the input changed its $ref; the gateway cannot prove the change is compatible"],
    ],
    [
      "changed tuple items",
      { type: "array", items: [{ type: "string" }] },
      { type: "array", items: [{ type: "integer" }] },
      ["the input changed its tuple items; the gateway cannot prove the change is compatible"],
    ],
    [
      "a removed property named like an Object method",
      { properties: { constructor: {} } },
      { properties: {} },
      ["`constructor` was removed"],
    ],
    ["a removed anyOf (looser)", { anyOf: [{ type: "string" }] }, {}, []],
    [
      "several reasons at once",
      { properties: { a: {}, b: {} } },
      { properties: { a: { type: "string" } }, required: ["a"] },
      ["`a` is now restricted to type string", "`b` was removed", "`a` is newly required"],
    ],
  ])("%s", (_label, prev, next, reasons) => {
    expect(schemaBreakingChanges(prev, next)).toEqual(reasons);
  });

  it("stops at a hostile depth and calls a deep change breaking", () => {
    const nest = (leaf: unknown) => {
      let schema: unknown = leaf;
      for (let i = 0; i < 500; i++) schema = { type: "object", properties: { a: schema } };
      return schema;
    };
    const reasons = schemaBreakingChanges(nest({ type: "string" }), nest({ type: "integer" }));
    expect(reasons).toEqual([expect.stringMatching(/^`a(\.a){32}` is nested too deeply to compare$/)]);
    expect(schemaBreakingChanges(nest({ type: "string" }), nest({ type: "string" }))).toEqual([]);
  });
});
