import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import type { ValidateFunction } from "ajv";
import { describe, expect, it, vi } from "vitest";
import { systemContext } from "../context";
import type { CallNotes, ResolvedTool } from "./types";
import { formatValidationErrors, validateArguments, validatorFor } from "./validate-arguments";

function tool(inputSchema: Record<string, unknown>, strict = false): ResolvedTool {
  return {
    id: "t1",
    serverId: "s1",
    serverSlug: "demo",
    name: "do",
    gatewayName: "demo__do",
    inputSchema,
    outputSchema: null,
    annotations: null,
    strict,
    riskTier: "LOW",
    timeoutMs: 1000,
    retryable: false,
    role: "active",
    versionId: "v1",
    version: "1.0.0",
  };
}

function compiled(schema: Record<string, unknown>, strict = false): ValidateFunction {
  const v = validatorFor(tool(schema, strict));
  if (v instanceof Error) throw v;
  return v;
}

const problems = (schema: Record<string, unknown>, args: unknown, strict = false) => {
  const v = compiled(schema, strict);
  return v(args) ? [] : formatValidationErrors(v.errors ?? []);
};

describe("validatorFor – the dialect follows $schema", () => {
  // A tuple: draft-07 writes it as `items: [...]`, 2020-12 as `prefixItems` (where `items: [...]` is invalid).
  const draft7Tuple = {
    $schema: "http://json-schema.org/draft-07/schema#",
    type: "object",
    properties: { p: { type: "array", items: [{ type: "string" }, { type: "number" }] } },
  };
  const tuple2020 = {
    $schema: "https://json-schema.org/draft/2020-12/schema",
    type: "object",
    properties: { p: { type: "array", prefixItems: [{ type: "string" }, { type: "number" }] } },
  };
  const noDialect = {
    type: "object",
    properties: { p: { type: "array", prefixItems: [{ type: "string" }, { type: "number" }] } },
  };

  it.each([
    ["draft-07 items: [...]", draft7Tuple],
    ["2020-12 prefixItems", tuple2020],
    ["no $schema (MCP default 2020-12) prefixItems", noDialect],
  ])("%s: enforces the tuple", (_label, schema) => {
    expect(problems(schema, { p: ["a", 1] })).toEqual([]);
    expect(problems(schema, { p: ["a", "b"] })).toEqual([expect.objectContaining({ path: "/p/1", rule: "type" })]);
  });

  it("2019-09 is understood (dependentRequired)", () => {
    const schema = {
      $schema: "https://json-schema.org/draft/2019-09/schema",
      type: "object",
      dependentRequired: { a: ["b"] },
    };
    expect(problems(schema, { a: 1, b: 2 })).toEqual([]);
    expect(problems(schema, { a: 1 })).toEqual([expect.objectContaining({ rule: "dependentRequired" })]);
  });

  it("checks formats (email, uri, date-time)", () => {
    const schema = {
      type: "object",
      properties: {
        e: { type: "string", format: "email" },
        u: { type: "string", format: "uri" },
        d: { type: "string", format: "date-time" },
      },
    };
    expect(problems(schema, { e: "a@b.example", u: "https://x.example/y", d: "2026-01-01T00:00:00Z" })).toEqual([]);
    expect(problems(schema, { e: "nope", u: "not a uri", d: "yesterday" }).map((p) => [p.path, p.rule])).toEqual([
      ["/e", "format"],
      ["/u", "format"],
      ["/d", "format"],
    ]);
  });

  it("strict adds additionalProperties:false without changing the tool's schema, and is cached apart", () => {
    const schema = { type: "object", properties: { a: { type: "string" } } };
    expect(problems(schema, { a: "x", b: 1 })).toEqual([]);
    expect(problems(schema, { a: "x", b: 1 }, true)).toEqual([
      { path: "/", rule: "additionalProperties", message: "(arguments) has unknown property `b` (not allowed)" },
    ]);
    expect(schema).toEqual({ type: "object", properties: { a: { type: "string" } } });
    expect(validatorFor(tool(schema))).toBe(validatorFor(tool({ ...schema })));
    expect(validatorFor(tool(schema))).not.toBe(validatorFor(tool(schema, true)));
  });

  it("two tools whose schemas share an $id but differ both compile and validate by their own rules", () => {
    const a = {
      $id: "https://example.test/args.json",
      type: "object",
      properties: { n: { type: "string" } },
      required: ["n"],
    };
    const b = {
      $id: "https://example.test/args.json",
      type: "object",
      properties: { n: { type: "number" } },
      required: ["n"],
    };
    expect(problems(a, { n: "x" })).toEqual([]);
    expect(problems(b, { n: 1 })).toEqual([]);
    expect(problems(b, { n: "x" })).toEqual([expect.objectContaining({ path: "/n", rule: "type" })]);
  });

  it("a schema with an $id can be switched to strict (same $id, another schema) and still $refs itself", () => {
    const schema = {
      $id: "https://example.test/self.json",
      type: "object",
      properties: { item: { $ref: "#/$defs/item" } },
      $defs: { item: { type: "string", minLength: 2 } },
    };
    expect(problems(schema, { item: "ok", more: 1 })).toEqual([]);
    expect(problems(schema, { item: "ok", more: 1 }, true)).toEqual([
      expect.objectContaining({ rule: "additionalProperties" }),
    ]);
    expect(problems(schema, { item: "x" }, true)).toEqual([
      expect.objectContaining({ path: "/item", rule: "minLength" }),
    ]);
  });

  it("a schema that does not compile is an Error, not a throw", () => {
    const v = validatorFor(tool({ type: "object", properties: { a: { type: "no-such-type" } } }));
    expect(v).toBeInstanceOf(Error);
    expect((v as Error).message).toMatch(/^the tool's inputSchema does not compile: /);
  });
});

describe("formatValidationErrors – each problem names the path and the rule", () => {
  const schema = {
    type: "object",
    properties: {
      status: { type: "string", enum: ["paid", "shipped"] },
      count: { type: "integer", minimum: 1 },
      nested: {
        type: "object",
        properties: { id: { type: "string", pattern: "^ORD-\\d+$" } },
        required: ["id"],
        additionalProperties: false,
      },
    },
    required: ["status"],
  };
  it.each([
    [{}, [{ path: "/", rule: "required", message: "(arguments) is missing required property `status`" }]],
    [{ status: "lost" }, [{ path: "/status", rule: "enum", message: '/status must be one of: "paid", "shipped"' }]],
    [{ status: "paid", count: "2" }, [{ path: "/count", rule: "type", message: "/count must be integer" }]],
    [{ status: "paid", count: 0 }, [{ path: "/count", rule: "minimum", message: "/count must be >= 1" }]],
    [
      { status: "paid", nested: { id: "X", extra: true } },
      [
        {
          path: "/nested",
          rule: "additionalProperties",
          message: "/nested has unknown property `extra` (not allowed)",
        },
        { path: "/nested/id", rule: "pattern", message: '/nested/id must match pattern "^ORD-\\d+$"' },
      ],
    ],
    [
      { status: "paid", nested: {} },
      [{ path: "/nested", rule: "required", message: "/nested is missing required property `id`" }],
    ],
  ])("%j", (args, expected) => {
    expect(problems(schema, args)).toEqual(expected);
  });

  it("reports at most 20 problems", () => {
    const many = {
      type: "object",
      properties: Object.fromEntries(Array.from({ length: 30 }, (_, i) => [`p${i}`, { type: "string" }])),
    };
    const args = Object.fromEntries(Array.from({ length: 30 }, (_, i) => [`p${i}`, i]));
    expect(problems(many, args)).toHaveLength(20);
  });
});

describe("validateArguments middleware", () => {
  const schema = { type: "object", properties: { n: { type: "integer" } }, required: ["n"] };
  const call = (args: Record<string, unknown>, s: Record<string, unknown> = schema) => ({
    tool: tool(s),
    arguments: args,
    endpoint: "mcp" as const,
    signal: new AbortController().signal,
  });
  const ok: CallToolResult = { content: [{ type: "text", text: "upstream answered" }] };

  it("passes valid arguments on unchanged", async () => {
    const next = vi.fn(() => Promise.resolve(ok));
    const notes: CallNotes = {};
    const c = call({ n: 1 });
    expect(await validateArguments()(next)(c, systemContext("t"), notes)).toBe(ok);
    expect(next).toHaveBeenCalledWith(c, expect.anything(), notes);
    expect(notes).toEqual({});
  });

  it("stops invalid arguments before the upstream, as a denied call with the problems", async () => {
    const next = vi.fn(() => Promise.resolve(ok));
    const notes: CallNotes = {};
    const result = await validateArguments()(next)(call({ n: "one" }), systemContext("t"), notes);
    expect(next).not.toHaveBeenCalled();
    expect(result).toEqual({
      isError: true,
      content: [
        {
          type: "text",
          text: "[invalid_arguments] Invalid arguments for demo__do: /n must be integer. Fix the arguments and call again.",
        },
      ],
      _meta: {
        "portcullis/error": {
          code: "invalid_arguments",
          message: "Invalid arguments for demo__do: /n must be integer. Fix the arguments and call again.",
          problems: [{ path: "/n", rule: "type", message: "/n must be integer" }],
        },
      },
    });
    expect(notes).toEqual({ decision: "deny", errorCode: "invalid_arguments", reason: "/n must be integer" });
  });

  it("refuses calls to a tool whose schema does not compile, telling the agent to ask an admin", async () => {
    const next = vi.fn(() => Promise.resolve(ok));
    const notes: CallNotes = {};
    const result = await validateArguments()(next)(call({}, { type: "bogus" }), systemContext("t"), notes);
    expect(next).not.toHaveBeenCalled();
    expect(result.isError).toBe(true);
    expect((result.content[0] as { text: string }).text).toMatch(
      /^\[invalid_arguments\] demo__do: the tool's inputSchema does not compile: .*Ask an admin to fix the tool definition\.$/,
    );
    expect(notes.errorCode).toBe("invalid_arguments");
  });
});
