import type { Tool } from "@modelcontextprotocol/sdk/types.js";
import { describe, expect, it } from "vitest";
import { definitionsHash } from "./content-hash";
import type { UpstreamDefinitions } from "./definitions";
import { diffDefinitions, type DefinitionsDiff } from "./diff-definitions";

type Schema = Record<string, unknown>;

const searchOrders: Tool = {
  name: "search_orders",
  title: "Search orders",
  description: "Search orders by customer, status and tags.",
  inputSchema: {
    type: "object",
    properties: {
      query: { type: "string", maxLength: 200, description: "Free text." },
      status: { type: "string", enum: ["open", "closed", "refunded"] },
      limit: { type: "integer", minimum: 1, maximum: 100 },
      minTotal: { type: "number", minimum: 0 },
      filter: {
        type: "object",
        properties: { customer: { type: "string" }, since: { type: "string", format: "date" } },
      },
      tags: { type: "array", items: { type: "string", maxLength: 30 }, maxItems: 10 },
      choice: { anyOf: [{ type: "string" }, { type: "integer" }] },
    },
    required: ["query"],
  },
  outputSchema: { type: "object", properties: { total: { type: "integer" } } },
  annotations: { readOnlyHint: true },
};

const base: UpstreamDefinitions = {
  serverInfo: { name: "orders", version: "2.1.0" },
  instructions: "Search before you cancel.",
  capabilities: { tools: {}, resources: {}, prompts: {} },
  tools: [searchOrders, { name: "cancel_order", description: "Cancel an order.", inputSchema: { type: "object" } }],
  resources: [{ uri: "orders://schema", name: "schema", mimeType: "application/json" }],
  resourceTemplates: [{ uriTemplate: "orders://{id}", name: "order", mimeType: "application/json" }],
  prompts: [
    { name: "triage", description: "Triage an order.", arguments: [{ name: "id", required: true }, { name: "tone" }] },
  ],
};

function changed(change: (d: UpstreamDefinitions) => void): UpstreamDefinitions {
  const next = structuredClone(base);
  change(next);
  return next;
}

function withSchema(change: (schema: Schema & { properties: Record<string, Schema> }) => void) {
  return changed((d) => change(d.tools[0]!.inputSchema as Schema & { properties: Record<string, Schema> }));
}

const none = { added: [], removed: [], changed: [] };

describe("diffDefinitions – input schema changes of a tool", () => {
  it.each<[string, UpstreamDefinitions, boolean, RegExp | undefined]>([
    ["a removed property", withSchema((s) => delete s.properties.status), true, /`status` was removed/],
    [
      "a newly required property",
      withSchema((s) => (s.required = ["query", "limit"])),
      true,
      /`limit` is newly required/,
    ],
    [
      "a new required property",
      withSchema((s) => {
        s.properties.region = { type: "string" };
        s.required = ["query", "region"];
      }),
      true,
      /`region` is newly required/,
    ],
    [
      "a changed type",
      withSchema((s) => (s.properties.limit!.type = "string")),
      true,
      /`limit` changed type from integer to string/,
    ],
    [
      "number narrowed to integer",
      withSchema((s) => (s.properties.minTotal!.type = "integer")),
      true,
      /`minTotal` changed type from number to integer/,
    ],
    [
      "a type added where there was none",
      withSchema((s) => (s.properties.choice = { type: "string" })),
      true,
      /`choice` is now restricted to type string/,
    ],
    [
      "an enum that lost values",
      withSchema((s) => (s.properties.status!.enum = ["open", "closed"])),
      true,
      /`status` lost enum values "refunded"/,
    ],
    [
      "an enum on a free string",
      withSchema((s) => (s.properties.query!.enum = ["a"])),
      true,
      /`query` is now limited to "a"/,
    ],
    [
      "additionalProperties became false",
      withSchema((s) => (s.additionalProperties = false)),
      true,
      /the input no longer accepts properties it does not declare/,
    ],
    [
      "a raised minimum",
      withSchema((s) => (s.properties.limit!.minimum = 5)),
      true,
      /`limit` minimum raised from 1 to 5/,
    ],
    [
      "a lowered maximum",
      withSchema((s) => (s.properties.limit!.maximum = 50)),
      true,
      /`limit` maximum lowered from 100 to 50/,
    ],
    [
      "a lowered maxLength",
      withSchema((s) => (s.properties.query!.maxLength = 100)),
      true,
      /`query` maxLength lowered from 200 to 100/,
    ],
    ["a new maxLength", withSchema((s) => (s.properties.status!.maxLength = 4)), true, /`status` now has maxLength 4/],
    [
      "a lowered maxItems",
      withSchema((s) => (s.properties.tags!.maxItems = 5)),
      true,
      /`tags` maxItems lowered from 10 to 5/,
    ],
    [
      "a removed nested property",
      withSchema((s) => delete (s.properties.filter!.properties as Schema).customer),
      true,
      /`filter.customer` was removed/,
    ],
    [
      "nested additionalProperties false",
      withSchema((s) => (s.properties.filter!.additionalProperties = false)),
      true,
      /`filter` no longer accepts/,
    ],
    [
      "a changed item type",
      withSchema((s) => (s.properties.tags!.items = { type: "integer" })),
      true,
      /`tags\[\]` changed type from string to integer/,
    ],
    ["a new pattern", withSchema((s) => (s.properties.query!.pattern = "^[a-z]+$")), true, /`query` now has to match/],
    [
      "a changed format",
      withSchema((s) => ((s.properties.filter!.properties as Record<string, Schema>).since!.format = "date-time")),
      true,
      /`filter.since` now has to be a date-time/,
    ],
    [
      "a changed anyOf it cannot reason about",
      withSchema((s) => (s.properties.choice!.anyOf = [{ type: "string" }])),
      true,
      /`choice` changed its anyOf/,
    ],
    [
      "a property description",
      withSchema((s) => (s.properties.query!.description = "Words to look for.")),
      false,
      undefined,
    ],
    ["a new optional property", withSchema((s) => (s.properties.region = { type: "string" })), false, undefined],
    ["a dropped requirement", withSchema((s) => (s.required = [])), false, undefined],
    [
      "an enum that gained values",
      withSchema((s) => (s.properties.status!.enum = ["open", "closed", "refunded", "held"])),
      false,
      undefined,
    ],
    ["integer widened to number", withSchema((s) => (s.properties.limit!.type = "number")), false, undefined],
    [
      "a lowered minimum and raised maximum",
      withSchema((s) => Object.assign(s.properties.limit!, { minimum: 0, maximum: 500 })),
      false,
      undefined,
    ],
    ["a removed maxLength", withSchema((s) => delete s.properties.query!.maxLength), false, undefined],
    [
      "a type that also allows null",
      withSchema((s) => (s.properties.query!.type = ["string", "null"])),
      false,
      undefined,
    ],
    [
      "a loosened nested bound",
      withSchema((s) => (s.properties.tags!.items = { type: "string", maxLength: 60 })),
      false,
      undefined,
    ],
  ])("%s", (_label, next, breaking, reason) => {
    const diff = diffDefinitions(base, next);
    expect(diff.tools.changed).toEqual([
      {
        name: "search_orders",
        fields: ["inputSchema"],
        breaking,
        reasons: reason ? [expect.stringMatching(reason)] : [],
      },
    ]);
    expect(diff.breaking).toBe(breaking);
    expect(diff.empty).toBe(false);
  });
});

describe("diffDefinitions – other tool fields never break", () => {
  it.each<[string, (t: Tool) => void, string[]]>([
    ["description", (t) => (t.description = "Find orders."), ["description"]],
    ["title", (t) => (t.title = "Find orders"), ["title"]],
    ["annotations", (t) => (t.annotations = { readOnlyHint: false, destructiveHint: true }), ["annotations"]],
    ["outputSchema", (t) => (t.outputSchema = { type: "object" }), ["outputSchema"]],
    ["execution", (t) => (t.execution = { taskSupport: "optional" }), ["execution"]],
    [
      "several at once",
      (t) => Object.assign(t, { title: "x", description: "y", annotations: undefined }),
      ["annotations", "description", "title"],
    ],
  ])("%s", (_label, change, fields) => {
    const diff = diffDefinitions(
      base,
      changed((d) => change(d.tools[0]!)),
    );
    expect(diff.tools.changed).toEqual([{ name: "search_orders", fields, breaking: false, reasons: [] }]);
    expect(diff.breaking).toBe(false);
  });
});

describe("diffDefinitions – added, removed and changed entries", () => {
  it.each<[string, UpstreamDefinitions, Partial<DefinitionsDiff>, boolean]>([
    ["a removed tool", changed((d) => d.tools.pop()), { tools: { ...none, removed: ["cancel_order"] } }, true],
    [
      "an added tool",
      changed((d) => d.tools.push({ name: "refund_order", inputSchema: { type: "object" } })),
      { tools: { ...none, added: ["refund_order"] } },
      false,
    ],
    [
      "a renamed tool",
      changed((d) => (d.tools[1]!.name = "cancel")),
      { tools: { ...none, added: ["cancel"], removed: ["cancel_order"] } },
      true,
    ],
    [
      "a removed resource",
      changed((d) => d.resources.pop()),
      { resources: { ...none, removed: ["orders://schema"] } },
      true,
    ],
    [
      "an added resource",
      changed((d) => d.resources.push({ uri: "orders://help", name: "help" })),
      { resources: { ...none, added: ["orders://help"] } },
      false,
    ],
    [
      "a resource description",
      changed((d) => (d.resources[0]!.description = "The order schema.")),
      {
        resources: {
          ...none,
          changed: [{ name: "orders://schema", fields: ["description"], breaking: false, reasons: [] }],
        },
      },
      false,
    ],
    [
      "a resource mimeType",
      changed((d) => (d.resources[0]!.mimeType = "text/csv")),
      {
        resources: {
          ...none,
          changed: [
            {
              name: "orders://schema",
              fields: ["mimeType"],
              breaking: true,
              reasons: ["mimeType changed from application/json to text/csv"],
            },
          ],
        },
      },
      true,
    ],
    [
      "a removed template",
      changed((d) => d.resourceTemplates.pop()),
      { resourceTemplates: { ...none, removed: ["orders://{id}"] } },
      true,
    ],
    [
      "an added template",
      changed((d) => d.resourceTemplates.push({ uriTemplate: "c://{id}", name: "c" })),
      { resourceTemplates: { ...none, added: ["c://{id}"] } },
      false,
    ],
    ["a removed prompt", changed((d) => d.prompts.pop()), { prompts: { ...none, removed: ["triage"] } }, true],
    [
      "a prompt argument newly required",
      changed((d) => (d.prompts[0]!.arguments![1]!.required = true)),
      {
        prompts: {
          ...none,
          changed: [
            { name: "triage", fields: ["arguments"], breaking: true, reasons: ["argument `tone` is newly required"] },
          ],
        },
      },
      true,
    ],
    [
      "a removed prompt argument",
      changed((d) => d.prompts[0]!.arguments!.pop()),
      {
        prompts: {
          ...none,
          changed: [
            { name: "triage", fields: ["arguments"], breaking: true, reasons: ["argument `tone` was removed"] },
          ],
        },
      },
      true,
    ],
    [
      "a new optional prompt argument",
      changed((d) => d.prompts[0]!.arguments!.push({ name: "lang" })),
      { prompts: { ...none, changed: [{ name: "triage", fields: ["arguments"], breaking: false, reasons: [] }] } },
      false,
    ],
    [
      "only serverInfo.version",
      changed((d) => (d.serverInfo.version = "2.1.1")),
      { server: { fields: ["serverInfo.version"] } },
      false,
    ],
    [
      "instructions and capabilities",
      changed((d) => Object.assign(d, { instructions: "New.", capabilities: {} })),
      { server: { fields: ["capabilities", "instructions"] } },
      false,
    ],
  ])("%s", (_label, next, expected, breaking) => {
    const diff = diffDefinitions(base, next);
    expect(diff).toEqual({
      server: { fields: [] },
      tools: none,
      resources: none,
      resourceTemplates: none,
      prompts: none,
      breaking,
      empty: false,
      ...expected,
    });
  });

  it("finds nothing when only key and list order differ", () => {
    const next = changed((d) => {
      d.tools.reverse();
      d.tools[1]!.inputSchema = { required: ["query"], ...d.tools[1]!.inputSchema };
      d.capabilities = { prompts: {}, resources: {}, tools: {} };
    });
    const diff = diffDefinitions(base, next);
    expect(diff.empty).toBe(true);
    expect(diff.breaking).toBe(false);
  });

  it("lists everything as added, nothing as breaking, for the first version", () => {
    const diff = diffDefinitions(null, base);
    expect(diff.tools.added).toEqual(["cancel_order", "search_orders"]);
    expect(diff.resources.added).toEqual(["orders://schema"]);
    expect(diff.resourceTemplates.added).toEqual(["orders://{id}"]);
    expect(diff.prompts.added).toEqual(["triage"]);
    expect(diff).toMatchObject({ breaking: false, empty: false, server: { fields: [] } });
  });

  it("is empty for a first version with nothing in it", () => {
    const nothing = { ...base, tools: [], resources: [], resourceTemplates: [], prompts: [] };
    expect(diffDefinitions(null, nothing).empty).toBe(true);
  });

  it("sorts added, removed and changed by name", () => {
    const prev = {
      ...base,
      tools: ["d", "b", "z", "y"].map((name) => ({ name, inputSchema: { type: "object" as const } })),
    };
    const next = changed((d) => {
      d.tools = ["c", "a", "z", "y"].map((name) => ({ name, description: "changed", inputSchema: { type: "object" } }));
    });
    const diff = diffDefinitions(prev, next);
    expect(diff.tools.added).toEqual(["a", "c"]);
    expect(diff.tools.removed).toEqual(["b", "d"]);
    expect(diff.tools.changed.map((c) => c.name)).toEqual(["y", "z"]);
  });
});

describe("diffDefinitions – agrees with definitionsHash", () => {
  const variants: [string, UpstreamDefinitions][] = [
    ["unchanged", structuredClone(base)],
    ["reordered", changed((d) => d.prompts.reverse() && d.tools.reverse())],
    ["version bumped", changed((d) => (d.serverInfo.version = "3.0.0"))],
    ["title set", changed((d) => (d.serverInfo.title = "Orders"))],
    ["instructions dropped", changed((d) => delete d.instructions)],
    ["tool changed", changed((d) => (d.tools[1]!.title = "Cancel"))],
    ["resource changed", changed((d) => (d.resources[0]!.size = 10))],
    ["template changed", changed((d) => (d.resourceTemplates[0]!.title = "Order"))],
    ["prompt changed", changed((d) => (d.prompts[0]!.title = "Triage"))],
  ];
  it.each(variants)("%s: the diff is empty exactly when the hash is unchanged", (_label, next) => {
    expect(diffDefinitions(base, next).empty).toBe(definitionsHash(base) === definitionsHash(next));
  });
});
