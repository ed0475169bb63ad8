import ts from "typescript";
import { describe, expect, it } from "vitest";
import {
  accessorFor,
  argsSummary,
  CALL_TOOL_RESULT_PREAMBLE,
  declarationsFor,
  functionName,
  MAX_DECLARATION_CHARS,
  schemaToType,
  toolDeclaration,
  tryTypeText,
  type SearchableTool,
} from "./declarations";
import { realisticTools } from "./fixtures/realistic-tools";

function tool(partial: Partial<SearchableTool> & { tool: string; server?: string }): SearchableTool {
  const server = partial.server ?? "orders";
  return { name: `${server}__${partial.tool}`, server, inputSchema: { type: "object" }, ...partial };
}

// Type-checks declaration text the way an editor would, so "compiles" is asserted, not assumed.
const libraries = new Map<string, ts.SourceFile | undefined>();
function typeErrors(text: string): string[] {
  const file = "/virtual/tools.d.ts";
  const options: ts.CompilerOptions = {
    strict: true,
    noEmit: true,
    target: ts.ScriptTarget.ES2022,
    lib: ["lib.es2022.d.ts"],
    types: [],
  };
  const host = ts.createCompilerHost(options);
  const readFile = host.readFile.bind(host);
  const getSourceFile = host.getSourceFile.bind(host);
  host.readFile = (name) => (name === file ? text : readFile(name));
  host.fileExists = (name) => name === file || ts.sys.fileExists(name);
  host.getSourceFile = (name, version) => {
    if (name === file) return ts.createSourceFile(name, text, version);
    if (!libraries.has(name)) libraries.set(name, getSourceFile(name, version));
    return libraries.get(name);
  };
  const program = ts.createProgram([file], options, host);
  return ts.getPreEmitDiagnostics(program).map((d) => ts.flattenDiagnosticMessageText(d.messageText, "\n"));
}

describe("schemaToType", () => {
  const string = { type: "string" };
  const number = { type: "number" };
  it.each<[string, unknown, string]>([
    ["primitives", { type: "integer" }, "number"],
    [
      "required and optional, quoted names",
      { type: "object", properties: { a: string, "b-c": { type: "integer" }, "1x": string }, required: ["a"] },
      '{ a: string; "b-c"?: number; "1x"?: string }',
    ],
    ["bare object", { type: "object" }, "Record<string, unknown>"],
    ["additionalProperties schema", { type: "object", additionalProperties: number }, "Record<string, number>"],
    [
      "additionalProperties false, no properties",
      { type: "object", additionalProperties: false },
      "Record<string, never>",
    ],
    [
      "additionalProperties true beside properties",
      { type: "object", properties: { a: string }, additionalProperties: true },
      "{ a?: string }",
    ],
    [
      "additionalProperties beside properties → index signature that fits",
      { type: "object", properties: { a: string }, additionalProperties: number },
      "{ a?: string; [key: string]: number | string | undefined }",
    ],
    ["patternProperties", { type: "object", patternProperties: { "^x-": string } }, "Record<string, string>"],
    ["properties without type", { properties: { a: string } }, "{ a?: string }"],
    ["array", { type: "array", items: string }, "string[]"],
    ["array without items", { type: "array" }, "unknown[]"],
    ["array of a union", { type: "array", items: { anyOf: [string, number] } }, "(string | number)[]"],
    ["2020-12 tuple", { type: "array", prefixItems: [number, string], minItems: 2 }, "[number, string]"],
    [
      "2020-12 tuple with rest",
      { type: "array", prefixItems: [number], items: { type: "boolean" }, minItems: 1 },
      "[number, ...boolean[]]",
    ],
    [
      "draft-07 tuple, optional members",
      { type: "array", items: [number, string], additionalItems: false },
      "[number?, string?]",
    ],
    [
      "enum, escaped",
      { enum: ["a", 'q"uote', "back\\slash", 1, -2.5, null, true] },
      '"a" | "q\\"uote" | "back\\\\slash" | 1 | -2.5 | null | true',
    ],
    ["const", { const: "fixed" }, '"fixed"'],
    ["const object", { const: { kind: "a", n: [1, 2] } }, '{ kind: "a"; n: [1, 2] }'],
    ["empty enum", { enum: [] }, "never"],
    ["anyOf", { anyOf: [string, number] }, "string | number"],
    [
      "oneOf of objects",
      {
        oneOf: [
          { type: "object", properties: { kind: { const: "a" } }, required: ["kind"] },
          { type: "object", properties: { kind: { const: "b" }, n: number }, required: ["kind"] },
        ],
      },
      '{ kind: "a" } | { kind: "b"; n?: number }',
    ],
    [
      "anyOf of bare `required` members adds nothing",
      { type: "object", properties: { a: string, b: string }, anyOf: [{ required: ["a"] }, { required: ["b"] }] },
      "{ a?: string; b?: string }",
    ],
    [
      "allOf",
      {
        allOf: [
          { type: "object", properties: { a: string } },
          { type: "object", properties: { b: number } },
        ],
      },
      "{ a?: string } & { b?: number }",
    ],
    [
      "allOf with a union member",
      { allOf: [{ anyOf: [string, number] }, { type: "string", minLength: 1 }] },
      "(string | number) & string",
    ],
    ["type array", { type: ["string", "null"] }, "string | null"],
    ["type array with object", { type: ["object", "null"], properties: { a: string } }, "{ a?: string } | null"],
    ["nullable (OpenAPI)", { type: "string", nullable: true }, "string | null"],
    ["format ignored", { type: "string", format: "date-time" }, "string"],
    [
      "$ref to $defs",
      {
        type: "object",
        properties: { u: { $ref: "#/$defs/User" } },
        $defs: { User: { type: "object", properties: { name: string } } },
      },
      "{ u?: { name?: string } }",
    ],
    [
      "$ref to definitions",
      { type: "object", properties: { u: { $ref: "#/definitions/Id" } }, definitions: { Id: string } },
      "{ u?: string }",
    ],
    ["$ref with escaped pointer", { $ref: "#/$defs/a~1b", $defs: { "a/b": number } }, "number"],
    ["$ref to nowhere", { $ref: "#/$defs/Missing" }, "unknown"],
    ["remote $ref", { $ref: "https://example.com/schema.json" }, "unknown"],
    ["true schema", true, "unknown"],
    ["false schema", false, "never"],
    ["not an object", "nonsense", "unknown"],
    ["unknown type name", { type: "date" }, "unknown"],
  ])("%s", (_, schema, expected) => {
    expect(schemaToType(schema)).toBe(expected);
  });

  it("answers unknown at a $ref cycle, after inlining it once", () => {
    const schema = {
      type: "object",
      properties: { head: { $ref: "#/$defs/Node" } },
      $defs: {
        Node: { type: "object", properties: { value: number, next: { $ref: "#/$defs/Node" } }, required: ["value"] },
      },
    };
    expect(schemaToType(schema)).toBe("{ head?: { value: number; next?: unknown } }");
  });

  it("answers unknown for mutually recursive $defs", () => {
    const schema = {
      $ref: "#/$defs/A",
      $defs: { A: { type: "array", items: { $ref: "#/$defs/B" } }, B: { type: "array", items: { $ref: "#/$defs/A" } } },
    };
    expect(schemaToType(schema)).toBe("unknown[][]");
  });

  it("inlines $refs only up to maxRefDepth", () => {
    const defs = {
      A: { type: "object", properties: { b: { $ref: "#/$defs/B" } } },
      B: { type: "object", properties: { c: { $ref: "#/$defs/C" } } },
      C: string,
    };
    const schema = { $ref: "#/$defs/A", $defs: defs };
    expect(schemaToType(schema)).toBe("{ b?: { c?: string } }");
    expect(schemaToType(schema, { maxRefDepth: 2 })).toBe("{ b?: { c?: unknown } }");
  });

  it("stops nesting at maxDepth", () => {
    let deep: Record<string, unknown> = string;
    for (let i = 0; i < 1000; i++) deep = { type: "object", properties: { x: deep }, required: ["x"] };
    expect(schemaToType(deep, { maxDepth: 3 })).toBe("{ x: { x: { x: unknown } } }");
    expect(schemaToType(deep)).toContain("unknown");
  });

  it("writes descriptions, @default and @example as JSDoc", () => {
    const schema = {
      type: "object",
      properties: {
        limit: { type: "integer", description: "Page size", default: 25 },
        when: { type: "string", description: "Start time", examples: ["2024-01-01"], deprecated: true },
        plain: { type: "boolean", title: "Titles stand in for descriptions" },
      },
      required: ["when"],
    };
    expect(schemaToType(schema)).toBe(
      [
        "{",
        "  /**",
        "   * Page size",
        "   * @default 25",
        "   */",
        "  limit?: number;",
        "  /**",
        "   * Start time",
        '   * @example "2024-01-01"',
        "   * @deprecated",
        "   */",
        "  when: string;",
        "  /** Titles stand in for descriptions */",
        "  plain?: boolean;",
        "}",
      ].join("\n"),
    );
  });

  it(
    "escapes */ in descriptions, defaults and examples so a comment cannot be closed early",
    { timeout: 30_000 },
    () => {
      const schema = {
        type: "object",
        properties: { a: { type: "string", description: "ends */ here", default: "*/", examples: ["x*/y"] } },
      };
      const text = schemaToType(schema);
      expect(text).not.toMatch(/\*\/(?!\n)/);
      expect(text).toContain("ends *\\/ here");
      expect(text).toContain('@default "*\\/"');
      expect(typeErrors(`declare const x: ${text};`)).toEqual([]);
    },
  );

  it("gives up (null) past maxChars, however the size arises", () => {
    const hugeEnum = { enum: Array.from({ length: 100_000 }, (_, i) => `value_${i}`) };
    const wide = {
      type: "object",
      properties: Object.fromEntries(Array.from({ length: 5000 }, (_, i) => [`p${i}`, string])),
    };
    const defs: Record<string, unknown> = {};
    // 50-way fan-out through 10 levels of $defs: 50^10 nodes if nothing bounded it.
    for (let i = 0; i < 10; i++) {
      defs[`D${i}`] = {
        type: "object",
        properties: Object.fromEntries(Array.from({ length: 50 }, (_, j) => [`p${j}`, { $ref: `#/$defs/D${i + 1}` }])),
      };
    }
    const fanOut = { $ref: "#/$defs/D0", $defs: defs };
    const started = Date.now();
    for (const schema of [hugeEnum, wide, fanOut]) expect(tryTypeText(schema)).toBeNull();
    expect(Date.now() - started).toBeLessThan(1000);
    expect(tryTypeText({ enum: ["a", "b"] }, { maxChars: 5 })).toBeNull();
    expect(tryTypeText({ enum: ["a", "b"] }, { maxChars: 50 })).toBe('"a" | "b"');
  });

  it("drops over-long literals to unknown instead of pasting them", () => {
    expect(schemaToType({ const: "x".repeat(500) })).toBe("unknown");
  });
});

describe("toolDeclaration", () => {
  it("renders the tool with JSDoc, required/optional args and its output type", () => {
    const deleteOrder = tool({
      tool: "delete_order",
      description: "Delete an order. Irreversible.",
      inputSchema: {
        type: "object",
        properties: {
          order_id: { type: "string", description: "The order to delete" },
          reason: { type: "string", enum: ["duplicate", "fraud", "customer_request"] },
        },
        required: ["order_id"],
      },
      outputSchema: { type: "object", properties: { deleted: { type: "boolean" } }, required: ["deleted"] },
    });
    expect(toolDeclaration(deleteOrder)).toBe(
      [
        "/** Delete an order. Irreversible. */",
        "declare function delete_order(args: {",
        "  /** The order to delete */",
        "  order_id: string;",
        '  reason?: "duplicate" | "fraud" | "customer_request";',
        "}): Promise<{ deleted: boolean }>;",
      ].join("\n"),
    );
  });

  it("returns CallToolResult without an output schema, and makes args optional when nothing is required", () => {
    const list = tool({
      tool: "list_orders",
      inputSchema: { type: "object", properties: { limit: { type: "integer" } } },
    });
    expect(toolDeclaration(list)).toBe(
      "declare function list_orders(args?: { limit?: number }): Promise<CallToolResult>;",
    );
  });

  it("names the function validly whatever the tool is called", () => {
    expect(functionName("do.thing")).toBe("do_thing");
    expect(functionName("create-page")).toBe("create_page");
    expect(functionName("3d_render")).toBe("_3d_render");
    expect(functionName("delete")).toBe("delete_");
    expect(toolDeclaration(tool({ tool: "do.thing", description: "Closes */ early" }))).toBe(
      "/** Closes *\\/ early */\ndeclare function do_thing(args?: Record<string, unknown>): Promise<CallToolResult>;",
    );
  });

  it("falls back to Record<string, unknown> with a note when the schema is over the cap", () => {
    const properties = Object.fromEntries(
      Array.from({ length: 400 }, (_, i) => [`field_${i}`, { type: "string", description: `Field number ${i}` }]),
    );
    const huge = tool({
      tool: "import_rows",
      description: "Import rows.",
      inputSchema: { type: "object", properties, required: ["field_0"] },
    });
    const text = toolDeclaration(huge);
    expect(text).toBe(
      [
        "/**",
        " * Import rows.",
        ` * @param args Its schema is too large to show here (over ${MAX_DECLARATION_CHARS} characters); pass an object.`,
        " */",
        "declare function import_rows(args: Record<string, unknown>): Promise<CallToolResult>;",
      ].join("\n"),
    );
  });

  it("keeps every realistic declaration under the cap plus its description", () => {
    for (const t of realisticTools(300)) {
      expect(toolDeclaration(t).length).toBeLessThan(MAX_DECLARATION_CHARS + 1100);
    }
  });

  it("falls back to Record<string, unknown> for an output schema over what the cap leaves", () => {
    const output = {
      type: "object",
      properties: Object.fromEntries(Array.from({ length: 600 }, (_, i) => [`f${i}`, { type: "string" }])),
    };
    const text = toolDeclaration(tool({ tool: "report", inputSchema: { type: "object" }, outputSchema: output }));
    expect(text).toContain("@returns Structured content; its schema is too large to show here.");
    expect(text).toContain("): Promise<Record<string, unknown>>;");
  });
});

describe("accessorFor", () => {
  it.each([
    ["orders", "query_orders", "tools.orders.query_orders"],
    ["my-server", "do.thing", 'tools["my-server"]["do.thing"]'],
    ["crm", "create-contact", 'tools.crm["create-contact"]'],
    ["github2", "listRepos", "tools.github2.listRepos"],
    ["9lives", "get", 'tools["9lives"].get'],
  ])("%s / %s → %s", (server, name, expected) => {
    expect(accessorFor(server, name)).toBe(expected);
  });
});

describe("argsSummary", () => {
  it("lists arguments with coarse types, optional ones marked", () => {
    const schema = {
      type: "object",
      properties: {
        order_id: { type: "string" },
        reason: { type: "string", enum: ["duplicate", "fraud"] },
        tags: { type: "array", items: { type: "string" } },
        address: { type: "object", properties: { city: { type: "string" } } },
        note: { type: ["string", "null"] },
        count: { type: "integer" },
        kind: { const: "a" },
        user: { $ref: "#/$defs/User" },
        "x-trace": { anyOf: [{ type: "string" }, { type: "number" }] },
      },
      required: ["order_id"],
      $defs: { User: { type: "object" } },
    };
    expect(argsSummary(schema, 1000)).toBe(
      'order_id: string, reason?: string, tags?: string[], address?: object, note?: string | null, count?: number, kind?: "a", user?: object, "x-trace"?: string | number',
    );
  });

  it("stops at the length budget and says how many are left", () => {
    const properties = Object.fromEntries(Array.from({ length: 30 }, (_, i) => [`argument_${i}`, { type: "string" }]));
    const text = argsSummary({ type: "object", properties });
    expect(text.length).toBeLessThan(180);
    expect(text).toMatch(/, …\d+ more$/);
    expect(argsSummary({ type: "object" })).toBe("");
  });
});

describe("declarationsFor", () => {
  const tools: SearchableTool[] = [
    tool({
      server: "orders",
      tool: "delete_order",
      description: "Delete an order.",
      inputSchema: { type: "object", properties: { order_id: { type: "string" } }, required: ["order_id"] },
      outputSchema: { type: "object", properties: { deleted: { type: "boolean" } }, required: ["deleted"] },
    }),
    tool({
      server: "my-server",
      tool: "do.thing",
      inputSchema: { type: "object", properties: { n: { type: "number" } } },
    }),
    tool({
      server: "orders",
      tool: "create_order",
      inputSchema: { type: "object", properties: { sku: { type: "string" } }, required: ["sku"] },
    }),
  ];

  it("writes one tools constant grouped by server, sorted, with the CallToolResult preamble", () => {
    expect(declarationsFor(tools)).toBe(
      [
        CALL_TOOL_RESULT_PREAMBLE,
        "",
        "declare const tools: {",
        '  "my-server": {',
        '    "do.thing"(args?: { n?: number }): Promise<CallToolResult>;',
        "  };",
        "  orders: {",
        "    create_order(args: { sku: string }): Promise<CallToolResult>;",
        "    /** Delete an order. */",
        "    delete_order(args: { order_id: string }): Promise<{ deleted: boolean }>;",
        "  };",
        "};",
        "",
      ].join("\n"),
    );
  });

  it("leaves out the preamble when every tool has an output schema", () => {
    expect(declarationsFor([tools[0]!])).not.toContain("type CallToolResult");
  });

  // The TypeScript checker is slow to start; the realistic tools cover every generator branch by 150.
  it("type-checks for realistic tools and every construct", { timeout: 30_000 }, () => {
    const constructs = tool({
      server: "edge-cases",
      tool: "all.constructs",
      inputSchema: {
        type: "object",
        properties: {
          tuple: { type: "array", prefixItems: [{ type: "number" }, { type: "string" }], items: { type: "boolean" } },
          map: { type: "object", properties: { fixed: { type: "string" } }, additionalProperties: { type: "integer" } },
          either: { oneOf: [{ type: "object", properties: { a: { const: 1 } } }, { type: ["string", "null"] }] },
          both: {
            allOf: [
              { type: "object", properties: { a: { type: "string" } } },
              { type: "object", properties: { b: { type: "number" } } },
            ],
          },
          node: { $ref: "#/$defs/Node" },
          "weird key */": { type: "string", description: "*/ tricky", default: "*/" },
        },
        $defs: { Node: { type: "object", properties: { next: { $ref: "#/$defs/Node" } } } },
      },
    });
    const text = declarationsFor([...realisticTools(150, 3), constructs]);
    expect(typeErrors(text)).toEqual([]);
    expect(
      typeErrors(
        `${CALL_TOOL_RESULT_PREAMBLE}\n${[constructs, ...realisticTools(60)].map((t) => toolDeclaration(t)).join("\n")}`,
      ),
    ).toEqual([]);
    // Sanity of the checker itself: a broken declaration is reported.
    expect(typeErrors("declare const x: { a: string; [key: string]: number };")).not.toEqual([]);
  });
});
