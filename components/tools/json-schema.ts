// Reading a tool's JSON Schema for people: one row per property (nested objects and array items
// included), and an example argument object to start a call from. Schemas come from upstream servers and
// are untrusted, so every step checks shapes and stops at a fixed depth.

export type Schema = Record<string, unknown>;
export type PropertyRow = {
  path: string;
  parent: string;
  name: string;
  depth: number;
  type: string;
  required: boolean;
  details: string[];
  description?: string;
};

const MAX_DEPTH = 8;
export const isSchema = (v: unknown): v is Schema => typeof v === "object" && v !== null && !Array.isArray(v);
const json = (v: unknown) => JSON.stringify(v);

export function typeOf(s: Schema, depth = 0): string {
  if (depth > MAX_DEPTH) return "…";
  if (typeof s.$ref === "string") return s.$ref.split("/").pop() ?? "ref";
  const variants = (Array.isArray(s.anyOf) ? s.anyOf : Array.isArray(s.oneOf) ? s.oneOf : null)?.filter(isSchema);
  if (variants?.length) return variants.map((v) => typeOf(v, depth + 1)).join(" | ");
  const types = Array.isArray(s.type)
    ? s.type.filter((t): t is string => typeof t === "string")
    : typeof s.type === "string"
      ? [s.type]
      : [];
  if (types.length === 0) {
    if ("const" in s) return "const";
    if (Array.isArray(s.enum)) return "enum";
    if (isSchema(s.properties)) return "object";
    return "any";
  }
  return types
    .map((t) => (t === "array" && isSchema(s.items) ? `array of ${typeOf(s.items, depth + 1)}` : t))
    .join(" | ");
}

function detailsOf(s: Schema): string[] {
  const out: string[] = [];
  if (Array.isArray(s.enum)) out.push(`one of ${s.enum.map(json).join(", ")}`);
  if ("const" in s) out.push(`always ${json(s.const)}`);
  const bound = (key: string, text: string) => typeof s[key] === "number" && out.push(`${text} ${String(s[key])}`);
  bound("minimum", "≥");
  bound("exclusiveMinimum", ">");
  bound("maximum", "≤");
  bound("exclusiveMaximum", "<");
  bound("minLength", "min length");
  bound("maxLength", "max length");
  bound("minItems", "min items");
  bound("maxItems", "max items");
  if (typeof s.format === "string") out.push(`format ${s.format}`);
  if (typeof s.pattern === "string") out.push(`pattern ${s.pattern}`);
  if ("default" in s) out.push(`default ${json(s.default)}`);
  if (s.additionalProperties === false) out.push("no other properties");
  return out;
}

/** Rows for every property, depth-first; `items` of an array are shown as `name[]`. */
export function propertyRows(schema: Schema): PropertyRow[] {
  const rows: PropertyRow[] = [];
  const walk = (s: Schema, parent: string, depth: number) => {
    if (depth > MAX_DEPTH || !isSchema(s.properties)) return;
    const required = new Set(
      Array.isArray(s.required) ? s.required.filter((r): r is string => typeof r === "string") : [],
    );
    for (const [name, raw] of Object.entries(s.properties)) {
      if (!isSchema(raw)) continue;
      const path = `${parent}${name}`;
      rows.push({
        path,
        parent,
        name,
        depth,
        type: typeOf(raw),
        required: required.has(name),
        details: detailsOf(raw),
        ...(typeof raw.description === "string" && raw.description ? { description: raw.description } : {}),
      });
      walk(raw, `${path}.`, depth + 1);
      if (isSchema(raw.items)) walk(raw.items, `${path}[].`, depth + 1);
    }
  };
  walk(schema, "", 0);
  return rows;
}

function exampleString(format: unknown): string {
  switch (format) {
    case "uri":
    case "url":
      return "https://example.com";
    case "email":
      return "user@example.com";
    case "date":
      return "2026-01-01";
    case "date-time":
      return "2026-01-01T00:00:00Z";
    case "uuid":
      return "00000000-0000-0000-0000-000000000000";
    default:
      return "";
  }
}

/** A value that fits `s`: its default or example if it has one, else a placeholder of the right type. */
export function exampleValue(s: unknown, depth = 0): unknown {
  if (!isSchema(s) || depth > MAX_DEPTH) return null;
  if ("default" in s) return s.default;
  if (Array.isArray(s.examples) && s.examples.length > 0) return s.examples[0];
  if ("const" in s) return s.const;
  if (Array.isArray(s.enum) && s.enum.length > 0) return s.enum[0];
  const variants = Array.isArray(s.anyOf) ? s.anyOf : Array.isArray(s.oneOf) ? s.oneOf : null;
  if (variants?.length) return exampleValue(variants[0], depth + 1);
  const type: unknown = Array.isArray(s.type) ? (s.type as unknown[]).find((t) => t !== "null") : s.type;
  switch (type) {
    case "string":
      return exampleString(s.format);
    case "integer":
    case "number": {
      if (typeof s.minimum === "number") return s.minimum;
      if (typeof s.exclusiveMinimum === "number")
        return type === "integer" ? s.exclusiveMinimum + 1 : s.exclusiveMinimum + 0.5;
      return typeof s.maximum === "number" && s.maximum < 0 ? s.maximum : 0;
    }
    case "boolean":
      return false;
    case "null":
      return null;
    case "array": {
      // An object item is worth showing (its shape is the hard part); a list of strings starts empty.
      const wantItem =
        (typeof s.minItems === "number" && s.minItems > 0) || (isSchema(s.items) && isSchema(s.items.properties));
      return wantItem ? [exampleValue(s.items, depth + 1)] : [];
    }
    default:
      return isSchema(s.properties) || type === "object" ? exampleObject(s, depth) : "";
  }
}

/** The required properties of an object schema, each with a placeholder. */
export function exampleObject(s: Schema, depth = 0): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  if (!isSchema(s.properties) || !Array.isArray(s.required)) return out;
  for (const name of s.required) {
    if (typeof name === "string") out[name] = exampleValue(s.properties[name], depth + 1);
  }
  return out;
}
