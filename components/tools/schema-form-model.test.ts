import { describe, expect, it } from "vitest";
import { fieldKind, fromDraft, pointerToPath, toDraft, type Draft } from "./schema-form-model";

const SCHEMA = {
  type: "object",
  properties: {
    name: { type: "string", description: "Who" },
    count: { type: "integer", minimum: 1 },
    ratio: { type: "number", default: 0.5 },
    loud: { type: "boolean" },
    color: { enum: ["red", "green", 3] },
    tags: { type: "array", items: { type: "string" } },
    filter: { type: "object", properties: { limit: { type: "integer" }, since: { type: "string" } }, required: ["limit"] },
    anything: { anyOf: [{ type: "string" }, { type: "number" }] },
  },
  required: ["name", "count"],
};

const fill = (d: Draft, values: Record<string, Draft>): Draft => (d.kind === "object" ? { ...d, fields: { ...d.fields, ...values } } : d);
const text = (t: string): Draft => ({ kind: "text", text: t });

describe("fieldKind", () => {
  it.each<[unknown, string]>([
    [{ type: "string" }, "string"],
    [{ type: ["integer", "null"] }, "integer"],
    [{ type: "boolean" }, "boolean"],
    [{ enum: [1, 2] }, "enum"],
    [{ type: "array", items: { type: "string" } }, "array"],
    [{ type: "array" }, "json"],
    [{ properties: { a: { type: "string" } } }, "object"],
    [{ type: "object" }, "json"],
    [{ anyOf: [{ type: "string" }] }, "json"],
    [{ type: ["string", "number"] }, "json"],
  ])("%j is drawn as %s", (schema, kind) => {
    expect(fieldKind(schema as Record<string, unknown>)).toBe(kind);
  });
});

describe("draft ↔ arguments", () => {
  it("starts from defaults and omits what is left empty", () => {
    const d = toDraft(SCHEMA, {});
    const out = fromDraft(SCHEMA, fill(d, { name: text("Ada"), count: text("3") }), "", true);
    expect(out).toEqual({ value: { name: "Ada", count: 3, ratio: 0.5 }, errors: [] });
  });

  it("converts every kind, nested objects and arrays included", () => {
    const value = { name: "Ada", count: 2, ratio: 1.5, loud: true, color: 3, tags: ["a", "b"], filter: { limit: 5, since: "x" }, anything: 7, extra: "kept" };
    const d = toDraft(SCHEMA, value);
    expect(fromDraft(SCHEMA, d, "", true)).toEqual({ value, errors: [] });
  });

  it("names each field that is wrong: a required one left empty, a word in a number, a fraction in an integer, bad JSON", () => {
    const d = fill(toDraft(SCHEMA, { filter: { since: "x" } }), {
      count: text("4.5"),
      ratio: text("lots"),
      anything: text("{nope"),
      tags: { kind: "array", items: [text("ok")] },
    });
    expect(fromDraft(SCHEMA, d, "", true).errors).toEqual([
      { path: "name", message: "is required" },
      { path: "count", message: "must be a whole number" },
      { path: "ratio", message: "must be a number" },
      { path: "filter.limit", message: "is required" },
      { path: "anything", message: "is not valid JSON" },
    ]);
  });

  it("leniently keeps text it cannot convert, so JSON and back keeps what was typed", () => {
    const d = fill(toDraft(SCHEMA, {}), { name: text("Ada"), count: text("4.5x") });
    const lenient = fromDraft(SCHEMA, d, "", true, true);
    expect(lenient.value).toEqual({ name: "Ada", count: "4.5x", ratio: 0.5 });
    const back = toDraft(SCHEMA, lenient.value);
    expect(back.kind === "object" && back.fields.count).toEqual(text("4.5x"));
  });
});

describe("pointerToPath", () => {
  it.each([
    ["/count", "count"],
    ["/filter/limit", "filter.limit"],
    ["/tags/0", "tags[0]"],
    ["/a~1b", "a/b"],
    ["", ""],
  ])("%s → %s", (pointer, path) => {
    expect(pointerToPath(pointer)).toBe(path);
  });
});

describe("optional nested objects", () => {
  it("are left out while nothing in them is filled in", () => {
    const d = fill(toDraft(SCHEMA, {}), { name: text("Ada"), count: text("1") });
    expect(fromDraft(SCHEMA, d, "", true).value).not.toHaveProperty("filter");
  });
});
