// The "Try a call" form's model, read from the tool's input schema as MCP Inspector does: one field per
// property (strings, numbers, integers, booleans, enums, arrays, nested objects), and a draft the form edits
// that converts to the call's arguments and back (so raw JSON and the form can take turns). Anything the form
// cannot draw (anyOf, $ref, no type) is a small JSON field of its own. Schemas are untrusted: depth is capped.
import { isSchema, type Schema } from "./json-schema";

export type FieldKind = "string" | "number" | "integer" | "boolean" | "enum" | "object" | "array" | "json";

/** What the form holds: text for numbers (so "4.5" in an integer field can be named, not lost). */
export type Draft =
  | { kind: "text"; text: string }
  | { kind: "boolean"; checked: boolean }
  | { kind: "object"; fields: Record<string, Draft>; extra: Record<string, unknown> }
  | { kind: "array"; items: Draft[] };

export type FieldError = { path: string; message: string };

const MAX_DEPTH = 8;

export function fieldKind(s: Schema, depth = 0): FieldKind {
  if (depth > MAX_DEPTH) return "json";
  if (Array.isArray(s.enum) && s.enum.length > 0) return "enum";
  const types = (Array.isArray(s.type) ? s.type : [s.type]).filter((t) => typeof t === "string" && t !== "null");
  if (types.length !== 1) return !types.length && isSchema(s.properties) ? "object" : "json";
  const t = types[0] as string;
  if (t === "object") return isSchema(s.properties) ? "object" : "json";
  if (t === "array") return isSchema(s.items) ? "array" : "json";
  return t === "string" || t === "number" || t === "integer" || t === "boolean" ? t : "json";
}

export const properties = (s: Schema): [string, Schema][] =>
  isSchema(s.properties) ? Object.entries(s.properties).filter((e): e is [string, Schema] => isSchema(e[1])) : [];
export const requiredOf = (s: Schema): Set<string> =>
  new Set(Array.isArray(s.required) ? s.required.filter((r): r is string => typeof r === "string") : []);

/** `filter.limit`, `tags[0]`: how errors name a field. */
export const childPath = (parent: string, key: string | number) =>
  typeof key === "number" ? `${parent}[${key}]` : parent ? `${parent}.${key}` : key;

/** A JSON pointer from the gateway's validation (`/tags/0/name`) as the form names it (`tags[0].name`). */
export function pointerToPath(pointer: string): string {
  return pointer
    .split("/")
    .slice(1)
    .map((p) => p.replace(/~1/g, "/").replace(/~0/g, "~"))
    .reduce<string>((path, seg) => childPath(path, /^\d+$/.test(seg) ? Number(seg) : seg), "");
}

const enumIndex = (s: Schema, value: unknown) => (s.enum as unknown[]).findIndex((e) => JSON.stringify(e) === JSON.stringify(value));

/** The draft that shows `value` (undefined: the field's default, or empty). */
export function toDraft(s: Schema, value: unknown, depth = 0): Draft {
  const v = value === undefined ? s.default : value;
  switch (fieldKind(s, depth)) {
    case "boolean":
      return typeof v === "boolean" ? { kind: "boolean", checked: v } : { kind: "text", text: v === undefined ? "" : JSON.stringify(v) };
    case "enum": {
      const i = v === undefined ? -1 : enumIndex(s, v);
      return { kind: "text", text: i < 0 ? "" : String(i) };
    }
    case "string":
    case "number":
    case "integer":
      return { kind: "text", text: v === undefined || v === null ? "" : typeof v === "string" ? v : JSON.stringify(v) };
    case "object": {
      const given = isSchema(v) ? v : {};
      const fields: Record<string, Draft> = {};
      for (const [k, p] of properties(s)) fields[k] = toDraft(p, given[k], depth + 1);
      const extra = Object.fromEntries(Object.entries(given).filter(([k]) => !(k in fields)));
      return { kind: "object", fields, extra };
    }
    case "array":
      return { kind: "array", items: (Array.isArray(v) ? v : []).map((item) => toDraft(s.items as Schema, item, depth + 1)) };
    case "json":
      return { kind: "text", text: v === undefined ? "" : JSON.stringify(v, null, 2) };
  }
}

type Out = { value: unknown; errors: FieldError[] };
const OMIT: Out = { value: undefined, errors: [] };

/**
 * The arguments a draft stands for, and what is wrong with it, each problem naming its field. `lenient` keeps
 * what cannot be converted as the text it is (for showing as JSON) instead of reporting it.
 */
export function fromDraft(s: Schema, d: Draft, path: string, required: boolean, lenient = false, depth = 0): Out {
  const kind = fieldKind(s, depth);
  const fail = (message: string, text: string): Out => (lenient ? { value: text, errors: [] } : { value: undefined, errors: [{ path, message }] });
  if (d.kind === "boolean") return d.checked || required || "default" in s ? { value: d.checked, errors: [] } : OMIT;
  if (d.kind === "object") {
    // An optional object nobody filled in is left out, whatever its own fields require.
    if (!required && path !== "" && isEmptyDraft(d)) return OMIT;
    const value: Record<string, unknown> = { ...d.extra };
    const errors: FieldError[] = [];
    const req = requiredOf(s);
    for (const [k, p] of properties(s)) {
      const field = d.fields[k];
      if (!field) continue;
      const out = fromDraft(p, field, childPath(path, k), req.has(k), lenient, depth + 1);
      errors.push(...out.errors);
      if (out.value !== undefined) value[k] = out.value;
    }
    return { value, errors };
  }
  if (d.kind === "array") {
    const outs = d.items.map((item, i) => fromDraft(s.items as Schema, item, childPath(path, i), true, lenient, depth + 1));
    const errors = outs.flatMap((o) => o.errors);
    return !required && outs.length === 0 ? OMIT : { value: outs.map((o) => o.value), errors };
  }
  const text = d.text;
  if (text === "" && kind !== "string") return required && !lenient ? { value: undefined, errors: [{ path, message: "is required" }] } : OMIT;
  switch (kind) {
    case "string":
      if (text !== "") return { value: text, errors: [] };
      return !required ? OMIT : lenient ? { value: "", errors: [] } : { value: undefined, errors: [{ path, message: "is required" }] };
    case "number":
    case "integer": {
      const n = Number(text.trim());
      if (text.trim() === "" || !Number.isFinite(n)) return fail("must be a number", text);
      if (kind === "integer" && !Number.isInteger(n)) return fail("must be a whole number", text);
      return { value: n, errors: [] };
    }
    case "enum":
      return { value: (s.enum as unknown[])[Number(text)], errors: [] };
    case "boolean":
    case "json":
    default:
      try {
        return { value: JSON.parse(text) as unknown, errors: [] };
      } catch {
        return fail("is not valid JSON", text);
      }
  }
}

/** Nothing typed, ticked or added anywhere inside. */
export function isEmptyDraft(d: Draft): boolean {
  if (d.kind === "text") return d.text === "";
  if (d.kind === "boolean") return !d.checked;
  if (d.kind === "array") return d.items.length === 0;
  return Object.keys(d.extra).length === 0 && Object.values(d.fields).every(isEmptyDraft);
}
