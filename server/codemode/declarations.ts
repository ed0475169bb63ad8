// JSON Schema (draft-07 and 2020-12, as MCP servers send them) → compact TypeScript declarations for code
// mode. Pure and bounded: a hostile schema (huge enums, $ref fan-out, deep nesting) costs at most the cap,
// then falls back to a loose type with a note, so it can never flood the model's context.
import { compareCodeUnits } from "../../lib/compare-code-units";

export type SearchableTool = {
  /** Gateway name, `<server>__<tool>`. */
  name: string;
  server: string;
  tool: string;
  title?: string | null;
  description?: string | null;
  inputSchema: Record<string, unknown>;
  outputSchema?: Record<string, unknown> | null;
};

export type TypeTextOptions = {
  /** Characters of type text (names, literals, docs) before rendering gives up; default 4,000. */
  maxChars?: number;
  /** How many `$ref`s deep to inline before answering `unknown`; default 3. */
  maxRefDepth?: number;
  /** Nesting of objects, arrays and combinators before answering `unknown`; default 8. */
  maxDepth?: number;
};

/** Per-tool cap on declaration text: above it, args fall back to `Record<string, unknown>`. */
export const MAX_DECLARATION_CHARS = 4000;
const MAX_DOC_CHARS = 300;
const MAX_TOOL_DOC_CHARS = 1000;
const MAX_LITERAL_CHARS = 120;
const INLINE_OBJECT_CHARS = 72;

/** Sent once, before any declaration that returns `CallToolResult`. */
export const CALL_TOOL_RESULT_PREAMBLE = `/** What a tool without an output schema resolves to (MCP CallToolResult). */
type CallToolResult = {
  content: Array<
    | { type: "text"; text: string }
    | { type: "image" | "audio"; data: string; mimeType: string }
    | { type: "resource" | "resource_link"; [key: string]: unknown }
  >;
  structuredContent?: Record<string, unknown>;
  isError?: boolean;
};`;

const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;
// Reserved words cannot name a function; as property names they are fine.
const RESERVED = new Set(
  (
    "break case catch class const continue debugger default delete do else enum export extends false finally for " +
    "function if import in instanceof new null return super switch this throw true try typeof var void while with " +
    "implements interface let package private protected public static yield await"
  ).split(" "),
);

/** How a program reaches a tool: `tools.orders.query_orders`, or `tools["my-server"]["do.thing"]`. */
export function accessorFor(server: string, tool: string): string {
  return `tools${member(server)}${member(tool)}`;
}

function member(name: string): string {
  return IDENTIFIER.test(name) ? `.${name}` : `[${JSON.stringify(name)}]`;
}

export function propertyKey(name: string): string {
  return IDENTIFIER.test(name) ? name : JSON.stringify(name);
}

class TooLarge extends Error {}

type Schema = Record<string, unknown>;
type Ctx = { root: Schema; spent: number; maxChars: number; maxRefDepth: number; maxDepth: number; refs: string[] };

/** TypeScript type text for a JSON Schema; throws nothing, answers `unknown` for what it cannot express. */
export function schemaToType(schema: unknown, opts: TypeTextOptions = {}): string {
  const result = tryTypeText(schema, opts);
  return result ?? "unknown";
}

/** The type text, or null when it would exceed `maxChars`. */
export function tryTypeText(schema: unknown, opts: TypeTextOptions = {}): string | null {
  const ctx: Ctx = {
    root: isObject(schema) ? schema : {},
    spent: 0,
    maxChars: opts.maxChars ?? MAX_DECLARATION_CHARS,
    maxRefDepth: opts.maxRefDepth ?? 3,
    maxDepth: opts.maxDepth ?? 8,
    refs: [],
  };
  try {
    const text = typeOf(schema, ctx, 0);
    return text.length > ctx.maxChars ? null : text;
  } catch (error) {
    if (error instanceof TooLarge) return null;
    throw error;
  }
}

function spend(ctx: Ctx, chars: number): void {
  ctx.spent += chars;
  if (ctx.spent > ctx.maxChars) throw new TooLarge();
}

function isObject(value: unknown): value is Schema {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function typeOf(schema: unknown, ctx: Ctx, depth: number): string {
  if (schema === true) return "unknown";
  if (schema === false) return "never";
  if (!isObject(schema) || depth >= ctx.maxDepth) return "unknown";
  spend(ctx, 1);
  if (typeof schema.$ref === "string") return refType(schema.$ref, ctx, depth);
  const parts: string[] = [];
  const base = baseType(schema, ctx, depth);
  if (base !== null) parts.push(base);
  for (const key of ["anyOf", "oneOf"] as const) {
    const members = schema[key];
    if (Array.isArray(members) && members.length > 0) parts.push(union(members.map((m) => typeOf(m, ctx, depth + 1))));
  }
  if (Array.isArray(schema.allOf)) for (const m of schema.allOf) parts.push(typeOf(m, ctx, depth + 1));
  // `{ type: "object", properties, anyOf: [{ required: [...] }] }`: the bare members add nothing to the type.
  const known = parts.filter((part) => part !== "unknown");
  let text = known.length === 0 ? "unknown" : intersection(known);
  if (schema.nullable === true && text !== "unknown") text = union([text, "null"]);
  return text;
}

function refType(ref: string, ctx: Ctx, depth: number): string {
  const match = /^#\/(\$defs|definitions)\/(.+)$/.exec(ref);
  if (!match || ctx.refs.includes(ref) || ctx.refs.length >= ctx.maxRefDepth) return "unknown";
  const defs = ctx.root[match[1]!];
  const name = match[2]!.replace(/~1/g, "/").replace(/~0/g, "~");
  const target = isObject(defs) && Object.hasOwn(defs, name) ? defs[name] : undefined;
  if (target === undefined) return "unknown";
  ctx.refs.push(ref);
  try {
    return typeOf(target, ctx, depth + 1);
  } finally {
    ctx.refs.pop();
  }
}

function baseType(schema: Schema, ctx: Ctx, depth: number): string | null {
  if ("const" in schema) return literal(schema.const, ctx);
  if (Array.isArray(schema.enum)) {
    return schema.enum.length === 0 ? "never" : union(schema.enum.map((value) => literal(value, ctx)));
  }
  const { type } = schema;
  if (Array.isArray(type)) {
    const names = type.filter((t): t is string => typeof t === "string");
    return names.length === 0 ? null : union(names.map((name) => namedType(name, schema, ctx, depth)));
  }
  if (typeof type === "string") return namedType(type, schema, ctx, depth);
  if (isObject(schema.properties) || "additionalProperties" in schema || isObject(schema.patternProperties)) {
    return objectType(schema, ctx, depth);
  }
  if ("items" in schema || Array.isArray(schema.prefixItems)) return arrayType(schema, ctx, depth);
  return null;
}

function namedType(type: string, schema: Schema, ctx: Ctx, depth: number): string {
  spend(ctx, type.length);
  switch (type) {
    case "string":
    case "boolean":
    case "null":
      return type;
    case "number":
    case "integer":
      return "number";
    case "object":
      return objectType(schema, ctx, depth);
    case "array":
      return arrayType(schema, ctx, depth);
    default:
      return "unknown";
  }
}

function literal(value: unknown, ctx: Ctx): string {
  const text = literalText(value);
  if (text === null || text.length > MAX_LITERAL_CHARS) return "unknown";
  spend(ctx, text.length);
  return text;
}

function literalText(value: unknown): string | null {
  if (value === null || typeof value === "boolean") return String(value);
  if (typeof value === "number") return Number.isFinite(value) ? String(value) : null;
  if (typeof value === "string") return JSON.stringify(value);
  if (Array.isArray(value)) {
    const items = value.map(literalText);
    return items.includes(null) ? null : `[${items.join(", ")}]`;
  }
  if (isObject(value)) {
    const entries = Object.entries(value).map(([key, v]) => [propertyKey(key), literalText(v)] as const);
    if (entries.some(([, v]) => v === null)) return null;
    return entries.length === 0 ? "{}" : `{ ${entries.map(([key, v]) => `${key}: ${v}`).join("; ")} }`;
  }
  return null;
}

function arrayType(schema: Schema, ctx: Ctx, depth: number): string {
  // 2020-12 tuples are `prefixItems` + `items`; draft-07 ones are `items: [...]` + `additionalItems`.
  const [tuple, rest] = Array.isArray(schema.prefixItems)
    ? [schema.prefixItems, schema.items]
    : Array.isArray(schema.items)
      ? [schema.items, schema.additionalItems]
      : [null, schema.items];
  if (tuple === null) return `${wrap(typeOf(rest ?? true, ctx, depth + 1))}[]`;
  const minItems = typeof schema.minItems === "number" ? schema.minItems : 0;
  const items = tuple.map((item, i) => {
    const type = typeOf(item, ctx, depth + 1);
    return i < minItems ? type : `${wrap(type)}?`;
  });
  // An absent rest schema would allow anything; reading it as a closed tuple says what servers mean.
  if (rest !== undefined && rest !== false) items.push(`...${wrap(typeOf(rest, ctx, depth + 1))}[]`);
  return `[${items.join(", ")}]`;
}

type Member = { docs: string[]; line: string };

function objectType(schema: Schema, ctx: Ctx, depth: number): string {
  const properties = isObject(schema.properties) ? schema.properties : {};
  const required = new Set(Array.isArray(schema.required) ? schema.required.filter((r) => typeof r === "string") : []);
  const types: string[] = [];
  const members: Member[] = Object.entries(properties).map(([name, property]) => {
    const key = propertyKey(name);
    spend(ctx, key.length + 2);
    const type = typeOf(property, ctx, depth + 1);
    types.push(type);
    return {
      docs: isObject(property) ? propertyDocs(property, ctx) : [],
      line: `${key}${required.has(name) ? "" : "?"}: ${type};`,
    };
  });
  const extra = extraPropertiesType(schema, ctx, depth);
  if (members.length === 0) return extra === null ? "Record<string, unknown>" : `Record<string, ${extra}>`;
  if (extra !== null) {
    // Every named property must fit the index signature, or the declaration does not compile.
    const optional = Object.keys(properties).some((name) => !required.has(name));
    const fitting = union([extra, ...types, ...(optional ? ["undefined"] : [])]);
    members.push({
      docs: [],
      line: `[key: string]: ${fitting.length <= 80 && !fitting.includes("\n") ? fitting : "unknown"};`,
    });
  }
  return renderMembers(members);
}

/** Type of properties beyond `properties`; null when none are described (absent, true or false). */
function extraPropertiesType(schema: Schema, ctx: Ctx, depth: number): string | null {
  const types: string[] = [];
  if (isObject(schema.additionalProperties)) types.push(typeOf(schema.additionalProperties, ctx, depth + 1));
  if (isObject(schema.patternProperties)) {
    for (const value of Object.values(schema.patternProperties)) types.push(typeOf(value, ctx, depth + 1));
  }
  if (types.length > 0) return union(types);
  const noProperties = !isObject(schema.properties) || Object.keys(schema.properties).length === 0;
  return schema.additionalProperties === false && noProperties ? "never" : null;
}

function renderMembers(members: Member[]): string {
  const inline = members.every((m) => m.docs.length === 0 && !m.line.includes("\n"));
  if (inline) {
    const text = `{ ${members.map((m) => m.line).join(" ")} }`;
    if (text.length <= INLINE_OBJECT_CHARS) return text.replace(/;\s}$/, " }");
  }
  const lines = members.flatMap((m) => [...jsDoc(m.docs), ...m.line.split("\n")]);
  return `{\n${lines.map((line) => `  ${line}`).join("\n")}\n}`;
}

function propertyDocs(schema: Schema, ctx: Ctx): string[] {
  const docs: string[] = [];
  const description = typeof schema.description === "string" ? schema.description : schema.title;
  if (typeof description === "string" && description.trim() !== "") docs.push(clip(description, MAX_DOC_CHARS));
  const fallback = literalText(schema.default);
  if ("default" in schema && fallback !== null && fallback.length <= MAX_LITERAL_CHARS)
    docs.push(`@default ${fallback}`);
  if (Array.isArray(schema.examples) && schema.examples.length > 0) {
    const example = literalText(schema.examples[0]);
    if (example !== null && example.length <= MAX_LITERAL_CHARS) docs.push(`@example ${example}`);
  }
  if (schema.deprecated === true) docs.push("@deprecated");
  spend(
    ctx,
    docs.reduce((sum, doc) => sum + doc.length + 4, 0),
  );
  return docs;
}

/** JSDoc lines; `*\/` inside text would end the comment early, so it is broken up. */
export function jsDoc(docs: string[]): string[] {
  const lines = docs.flatMap((doc) => doc.split(/\r?\n/)).map((line) => line.trimEnd().replace(/\*\//g, "*\\/"));
  while (lines.length > 0 && lines[lines.length - 1] === "") lines.pop();
  if (lines.length === 0) return [];
  if (lines.length === 1 && lines[0]!.length <= 140) return [`/** ${lines[0]} */`];
  return ["/**", ...lines.map((line) => (line === "" ? " *" : ` * ${line}`)), " */"];
}

function clip(text: string, max: number): string {
  const trimmed = text.trim();
  return trimmed.length <= max ? trimmed : `${trimmed.slice(0, max - 1).trimEnd()}…`;
}

function union(types: string[]): string {
  const unique = [...new Set(types)];
  if (unique.includes("unknown")) return "unknown";
  const kept = unique.length > 1 ? unique.filter((t) => t !== "never") : unique;
  return kept.join(" | ");
}

function intersection(types: string[]): string {
  const unique = [...new Set(types)];
  return unique.length === 1 ? unique[0]! : unique.map((t) => (isTopLevelUnion(t) ? `(${t})` : t)).join(" & ");
}

function wrap(type: string): string {
  return isTopLevelUnion(type) || isTopLevelIntersection(type) ? `(${type})` : type;
}

function isTopLevelUnion(type: string): boolean {
  return topLevelHas(type, "|");
}

function isTopLevelIntersection(type: string): boolean {
  return topLevelHas(type, "&");
}

// Scans outside brackets and string literals, so `{ a: "x|y" } []` is not mistaken for a union.
function topLevelHas(type: string, operator: string): boolean {
  let nesting = 0;
  for (let i = 0; i < type.length; i++) {
    const c = type[i]!;
    if (c === '"') {
      for (i++; i < type.length && type[i] !== '"'; i++) if (type[i] === "\\") i++;
    } else if (c === "{" || c === "[" || c === "(" || c === "<") nesting++;
    else if (c === "}" || c === "]" || c === ")" || c === ">") nesting--;
    else if (c === operator && nesting === 0) return true;
  }
  return false;
}

/** The name a `declare function` can carry: invalid characters become `_`, reserved words get a `_`. */
export function functionName(tool: string): string {
  const name = tool.replace(/[^A-Za-z0-9_$]/g, "_").replace(/^(?=[0-9])/, "_");
  return RESERVED.has(name) ? `${name}_` : name;
}

type Signature = { docs: string[]; params: string; returns: string };

function signature(tool: SearchableTool, maxChars: number): Signature {
  const docs: string[] = [];
  const description = tool.description ?? tool.title;
  if (description && description.trim() !== "") docs.push(clip(description, MAX_TOOL_DOC_CHARS));
  let args = tryTypeText(tool.inputSchema, { maxChars });
  if (args === null) {
    docs.push(`@param args Its schema is too large to show here (over ${maxChars} characters); pass an object.`);
    args = "Record<string, unknown>";
  }
  const optional = !hasRequired(tool.inputSchema);
  let returns = "CallToolResult";
  if (tool.outputSchema) {
    const output = tryTypeText(tool.outputSchema, { maxChars: Math.max(0, maxChars - args.length) });
    if (output === null) docs.push("@returns Structured content; its schema is too large to show here.");
    returns = output ?? "Record<string, unknown>";
  }
  return { docs, params: `args${optional ? "?" : ""}: ${args}`, returns: `Promise<${returns}>` };
}

function hasRequired(schema: Schema): boolean {
  return Array.isArray(schema.required) && schema.required.length > 0;
}

/** `declare function delete_order(args: {...}): Promise<{...}>;` with JSDoc, capped per tool. */
export function toolDeclaration(tool: SearchableTool, maxChars = MAX_DECLARATION_CHARS): string {
  const { docs, params, returns } = signature(tool, maxChars);
  return [...jsDoc(docs), `declare function ${functionName(tool.tool)}(${params}): ${returns};`].join("\n");
}

/** Whether any declaration of these tools mentions `CallToolResult` (so the preamble is needed). */
export function needsCallToolResult(tools: readonly SearchableTool[]): boolean {
  return tools.some((tool) => !tool.outputSchema);
}

/** A whole `.d.ts` for an editor: `declare const tools: { orders: { delete_order(args: …): Promise<…>; }; }`. */
export function declarationsFor(tools: readonly SearchableTool[], maxChars = MAX_DECLARATION_CHARS): string {
  const byServer = new Map<string, SearchableTool[]>();
  for (const tool of tools) byServer.set(tool.server, [...(byServer.get(tool.server) ?? []), tool]);
  const servers = [...byServer.keys()].sort(compareCodeUnits).map((server) => {
    const members = byServer
      .get(server)!
      .sort((a, b) => compareCodeUnits(a.tool, b.tool))
      .flatMap((tool) => {
        const { docs, params, returns } = signature(tool, maxChars);
        return [...jsDoc(docs), `${propertyKey(tool.tool)}(${params}): ${returns};`];
      });
    return [`${propertyKey(server)}: {`, ...members.map(indent), "};"];
  });
  const preamble = needsCallToolResult(tools) ? [CALL_TOOL_RESULT_PREAMBLE, ""] : [];
  return [...preamble, "declare const tools: {", ...servers.flat().map(indent), "};", ""].join("\n");
}

function indent(line: string): string {
  return line
    .split("\n")
    .map((l) => `  ${l}`)
    .join("\n");
}

/** One line for search summaries: `order_id: string, reason?: string`; enums and objects stay coarse. */
export function argsSummary(schema: Record<string, unknown>, maxChars = 160): string {
  const properties = isObject(schema.properties) ? Object.entries(schema.properties) : [];
  const required = new Set(Array.isArray(schema.required) ? schema.required : []);
  const parts: string[] = [];
  let length = 0;
  for (const [i, [name, property]] of properties.entries()) {
    const part = `${propertyKey(name)}${required.has(name) ? "" : "?"}: ${coarseType(property, schema, 0)}`;
    if (length + part.length > maxChars && parts.length > 0) {
      parts.push(`…${properties.length - i} more`);
      break;
    }
    parts.push(part);
    length += part.length + 2;
  }
  return parts.join(", ");
}

function coarseType(schema: unknown, root: Schema, depth: number): string {
  if (!isObject(schema) || depth > 3) return "unknown";
  if (typeof schema.$ref === "string") {
    const match = /^#\/(\$defs|definitions)\/(.+)$/.exec(schema.$ref);
    const defs = match ? root[match[1]!] : undefined;
    return isObject(defs) && match ? coarseType(defs[match[2]!], root, depth + 1) : "unknown";
  }
  if ("const" in schema) return literalText(schema.const) ?? "unknown";
  const members = [schema.anyOf, schema.oneOf].find((m): m is unknown[] => Array.isArray(m) && m.length > 0);
  if (schema.type === undefined && members) return union(members.map((m) => coarseType(m, root, depth + 1)));
  const types: unknown[] = Array.isArray(schema.type) ? schema.type : [schema.type];
  const names = types.map((type): string => {
    if (type === "integer") return "number";
    if (type === "array") return `${wrap(coarseType(schema.items, root, depth + 1))}[]`;
    if (type === "string" || type === "number" || type === "boolean" || type === "null" || type === "object")
      return type;
    if (type === undefined && Array.isArray(schema.enum))
      return union(schema.enum.map((v: unknown) => (v === null ? "null" : typeof v)));
    if (type === undefined && isObject(schema.properties)) return "object";
    return "unknown";
  });
  return union(names);
}
