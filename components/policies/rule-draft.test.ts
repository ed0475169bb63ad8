import { describe, expect, it } from "vitest";
import { ZCreateRule } from "@/lib/policy-schemas";
import { apiFieldErrors, zodFieldErrors } from "./field-errors";
import { ApiError } from "@/components/api-client";
import { emptyRuleDraft, enumValue, ruleBody, type RuleDraft } from "./rule-draft";

const draft = (patch: Partial<RuleDraft>): RuleDraft => ({ ...emptyRuleDraft(patch.kind), ...patch });

describe("enumValue", () => {
  it.each([
    ["pending", "pending"],
    ["10", 10],
    ["-2.5", -2.5],
    ["1e3", 1000],
    ["true", true],
    ["false", false],
    ['"10"', "10"],
    ['"true"', "true"],
    ["10 items", "10 items"],
  ] as const)("%s → %j", (token, value) => {
    expect(enumValue(token)).toStrictEqual(value);
  });
});

describe("ruleBody", () => {
  it.each<[string, Partial<RuleDraft>, Record<string, unknown>]>([
    [
      "a path rule is kind and argument",
      { kind: "path", argument: "file", min: "3" },
      { kind: "path", argument: "file" },
    ],
    [
      "sql without extra functions leaves them out",
      { kind: "sql_readonly", argument: "sql" },
      { kind: "sql_readonly", argument: "sql" },
    ],
    [
      "sql with extra functions lists them",
      { kind: "sql_readonly", argument: "sql", deniedFunctions: " pg_sleep, ,dblink " },
      { kind: "sql_readonly", argument: "sql", deniedFunctions: ["pg_sleep", "dblink"] },
    ],
    [
      "a row cap parses its maximum",
      { kind: "row_cap", argument: "limit", rowMax: "25" },
      { kind: "row_cap", argument: "limit", max: 25 },
    ],
    [
      "a row cap without a maximum has none",
      { kind: "row_cap", argument: "limit" },
      { kind: "row_cap", argument: "limit" },
    ],
    [
      "a value rule keeps only the constraints given",
      { kind: "value", argument: "status", enumText: "pending, shipped, 3", maxLength: "20" },
      { kind: "value", argument: "status", enum: ["pending", "shipped", 3], maxLength: 20 },
    ],
    [
      "a value rule with bounds and a pattern",
      { kind: "value", argument: "n", min: "0", max: "1.5", pattern: "^[0-9]+$" },
      { kind: "value", argument: "n", min: 0, max: 1.5, pattern: "^[0-9]+$" },
    ],
  ])("%s", (_title, patch, body) => {
    expect(ruleBody(draft(patch))).toStrictEqual(body);
  });

  it.each<[string, Partial<RuleDraft>, string, string]>([
    [
      "an invalid regular expression",
      { kind: "value", argument: "a", pattern: "([a-z" },
      "pattern",
      "not a valid regular expression",
    ],
    ["min above max", { kind: "value", argument: "a", min: "10", max: "5" }, "min", "min cannot exceed max"],
    ["no constraint at all", { kind: "value", argument: "a" }, "", "give at least one constraint"],
    ["a row cap below 1", { kind: "row_cap", argument: "limit", rowMax: "0" }, "max", ""],
    ["a number that is not one", { kind: "value", argument: "a", min: "abc" }, "min", ""],
    ["an empty argument", { kind: "path", argument: "  " }, "argument", ""],
  ])("the schema refuses %s, under the field it concerns", (_title, patch, field, message) => {
    const parsed = ZCreateRule.safeParse(ruleBody(draft(patch)));
    expect(parsed.success).toBe(false);
    const errors = zodFieldErrors(parsed.error);
    expect(errors[field]?.join(" ")).toContain(message);
  });

  it("accepts a complete value rule", () => {
    expect(ZCreateRule.safeParse(ruleBody(draft({ kind: "value", argument: "a", enumText: "x" }))).success).toBe(true);
  });
});

describe("apiFieldErrors", () => {
  it("puts each detail under the first path segment that names a field, the rest under the form", () => {
    const err = new ApiError(422, "validation_failed", "Invalid", [
      { path: "body.pattern", message: "bad pattern" },
      { path: "enum.2", message: "bad value" },
      { path: "other", message: "something else" },
    ]);
    expect(apiFieldErrors(err, ["pattern", "enum"])).toStrictEqual({
      pattern: ["bad pattern"],
      enum: ["bad value"],
      "": ["other: something else"],
    });
  });

  it("uses the message when there are no details", () => {
    expect(apiFieldErrors(new ApiError(422, "validation_failed", "Nope"), ["pattern"])).toStrictEqual({ "": ["Nope"] });
  });
});
