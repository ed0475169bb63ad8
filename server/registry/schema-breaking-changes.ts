// Whether a new JSON Schema rejects arguments the old one accepted. Conservative: where the gateway cannot
// prove a change compatible (unions, $ref, conditionals), it calls it breaking, since a needless major bump
// costs an admin a glance while a missed one breaks agents silently.
import { canonicalJson } from "./content-hash";

type Schema = Record<string, unknown>;

const LOWER_BOUNDS = ["minimum", "exclusiveMinimum", "minLength", "minItems", "minProperties"] as const;
const UPPER_BOUNDS = ["maximum", "exclusiveMaximum", "maxLength", "maxItems", "maxProperties"] as const;
const UNPROVABLE = [
  "anyOf",
  "oneOf",
  "allOf",
  "not",
  "$ref",
  "if",
  "then",
  "else",
  "patternProperties",
  "propertyNames",
  "dependentRequired",
  "dependentSchemas",
  "dependencies",
  "prefixItems",
  "contains",
] as const;

// Upstream schemas are untrusted; real ones are a few levels deep, a hostile one could exhaust the stack.
const MAX_DEPTH = 32;

/** Human-readable reasons why `next` is stricter than or incompatible with `prev`; empty when it is not. */
export function schemaBreakingChanges(prev: unknown, next: unknown): string[] {
  const reasons: string[] = [];
  compare(prev, next, "", reasons, 0);
  return reasons;
}

function compare(prev: unknown, next: unknown, at: string, out: string[], depth: number): void {
  if (next === undefined || next === true || prev === false || (!isSchema(next) && next !== false)) return;
  if (next === false) return void out.push(`${label(at)} no longer accepts any value`);
  if (depth > MAX_DEPTH) {
    if (canonicalJson(prev) !== canonicalJson(next)) out.push(`${label(at)} is nested too deeply to compare`);
    return;
  }
  const p: Schema = isSchema(prev) ? prev : {};
  compareTypes(p, next, at, out);
  compareValues(p, next, at, out);
  compareBounds(p, next, at, out);
  compareObject(p, next, at, out, depth);
  compareItems(p, next, at, out, depth);
  for (const keyword of UNPROVABLE) {
    if (next[keyword] !== undefined && canonicalJson(p[keyword]) !== canonicalJson(next[keyword])) {
      out.push(`${label(at)} changed its ${keyword}; the gateway cannot prove the change is compatible`);
    }
  }
  for (const defs of ["$defs", "definitions"] as const) {
    const prevDefs = asSchema(p[defs]);
    const nextDefs = asSchema(next[defs]);
    for (const [name, schema] of Object.entries(nextDefs)) {
      if (Object.hasOwn(prevDefs, name)) compare(prevDefs[name], schema, `#/${defs}/${name}`, out, depth + 1);
    }
  }
}

function compareTypes(p: Schema, n: Schema, at: string, out: string[]): void {
  const nextTypes = typesOf(n);
  if (!nextTypes) return;
  const prevTypes = typesOf(p);
  if (!prevTypes) return void out.push(`${label(at)} is now restricted to type ${nextTypes.join(" | ")}`);
  const accepts = (type: string) => nextTypes.includes(type) || (type === "integer" && nextTypes.includes("number"));
  if (!prevTypes.every(accepts)) {
    out.push(`${label(at)} changed type from ${prevTypes.join(" | ")} to ${nextTypes.join(" | ")}`);
  }
}

function compareValues(p: Schema, n: Schema, at: string, out: string[]): void {
  const prevValues = allowedValues(p);
  if (Array.isArray(n.enum)) {
    const nextValues = new Set(n.enum.map((value) => canonicalJson(value)));
    if (!prevValues) out.push(`${label(at)} is now limited to ${[...nextValues].join(", ")}`);
    else {
      const lost = prevValues.filter((value) => !nextValues.has(value));
      if (lost.length > 0) out.push(`${label(at)} lost enum values ${lost.join(", ")}`);
    }
  }
  if (n.const !== undefined) {
    const fixed = canonicalJson(n.const);
    if (!prevValues || prevValues.some((value) => value !== fixed)) out.push(`${label(at)} is now fixed to ${fixed}`);
  }
  if (typeof n.pattern === "string" && n.pattern !== p.pattern) {
    out.push(`${label(at)} now has to match the pattern ${n.pattern}`);
  }
  if (typeof n.format === "string" && n.format !== p.format) out.push(`${label(at)} now has to be a ${n.format}`);
  if (typeof n.multipleOf === "number" && (typeof p.multipleOf !== "number" || p.multipleOf % n.multipleOf !== 0)) {
    out.push(`${label(at)} now has to be a multiple of ${n.multipleOf}`);
  }
  if (n.uniqueItems === true && p.uniqueItems !== true) out.push(`${label(at)} now requires unique items`);
}

function compareBounds(p: Schema, n: Schema, at: string, out: string[]): void {
  for (const [keywords, stricter, verb] of [
    [LOWER_BOUNDS, (was: number, now: number) => now > was, "raised"],
    [UPPER_BOUNDS, (was: number, now: number) => now < was, "lowered"],
  ] as const) {
    for (const keyword of keywords) {
      const now = n[keyword];
      const was = p[keyword];
      if (typeof now !== "number") continue;
      if (typeof was !== "number") out.push(`${label(at)} now has ${keyword} ${now}`);
      else if (stricter(was, now)) out.push(`${label(at)} ${keyword} ${verb} from ${was} to ${now}`);
    }
  }
}

function compareObject(p: Schema, n: Schema, at: string, out: string[], depth: number): void {
  const prevProps = asSchema(p.properties);
  const nextProps = asSchema(n.properties);
  for (const [name, schema] of Object.entries(prevProps)) {
    if (!Object.hasOwn(nextProps, name)) out.push(`${label(join(at, name))} was removed`);
    else compare(schema, nextProps[name], join(at, name), out, depth + 1);
  }
  const wasRequired = new Set(stringsOf(p.required));
  for (const name of stringsOf(n.required)) {
    if (!wasRequired.has(name)) out.push(`${label(join(at, name))} is newly required`);
  }
  const prevExtra = p.additionalProperties;
  const nextExtra = n.additionalProperties;
  if (nextExtra === false && prevExtra !== false) {
    out.push(`${label(at)} no longer accepts properties it does not declare (additionalProperties: false)`);
  } else if (isSchema(nextExtra)) {
    compare(prevExtra ?? true, nextExtra, `${at || "input"}.*`, out, depth + 1);
  }
}

function compareItems(p: Schema, n: Schema, at: string, out: string[], depth: number): void {
  if (n.items === undefined) return;
  if (Array.isArray(n.items) || Array.isArray(p.items)) {
    if (canonicalJson(p.items) !== canonicalJson(n.items)) {
      out.push(`${label(at)} changed its tuple items; the gateway cannot prove the change is compatible`);
    }
    return;
  }
  compare(p.items ?? true, n.items, `${at || "input"}[]`, out, depth + 1);
}

function allowedValues(schema: Schema): string[] | undefined {
  if (schema.const !== undefined) return [canonicalJson(schema.const)];
  if (Array.isArray(schema.enum)) return schema.enum.map((value) => canonicalJson(value));
  return undefined;
}

function typesOf(schema: Schema): string[] | undefined {
  if (typeof schema.type === "string") return [schema.type];
  if (Array.isArray(schema.type)) return stringsOf(schema.type);
  return undefined;
}

function isSchema(value: unknown): value is Schema {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function asSchema(value: unknown): Schema {
  return isSchema(value) ? value : {};
}

function stringsOf(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((item): item is string => typeof item === "string") : [];
}

function join(at: string, name: string): string {
  return at ? `${at}.${name}` : name;
}

function label(at: string): string {
  return at ? `\`${at}\`` : "the input";
}
