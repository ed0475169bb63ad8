// `Mcp-Param-{Name}` headers against the tool's own `x-mcp-header` annotations (SEP-2243): each annotated
// parameter with a value in the call's arguments must be mirrored in its header, and the header, decoded, must
// say the same value. Annotations are read only where the specification allows them — properties reached from
// the schema root through `properties` alone, of a primitive type; any other is not one a client mirrors.
import { decodeHeaderValue } from "./decode-header-value";
import { MODERN_ERROR } from "./modern-protocol";
import type { HeaderSource, ModernRefusal } from "./routing-header-refusal";

export type HeaderParam = { header: string; path: string[]; type: "string" | "integer" | "boolean" };

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);
const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;

/** The statically reachable, well-formed x-mcp-header annotations of an input schema. */
export function headerParams(schema: unknown, path: string[] = []): HeaderParam[] {
  if (!isObject(schema) || !isObject(schema.properties)) return [];
  const found: HeaderParam[] = [];
  for (const [key, property] of Object.entries(schema.properties)) {
    if (!isObject(property)) continue;
    const header = property["x-mcp-header"];
    const type = property.type;
    if (typeof header === "string" && TOKEN.test(header) && (type === "string" || type === "integer" || type === "boolean")) found.push({ header, path: [...path, key], type });
    found.push(...headerParams(property, [...path, key]));
  }
  return found;
}

function valueAt(args: unknown, path: string[]): unknown {
  let v = args;
  for (const key of path) v = isObject(v) ? v[key] : undefined;
  return v;
}

function matches(type: HeaderParam["type"], header: string, value: unknown): boolean {
  if (type === "integer") return header.trim() !== "" && Number(header) === value;
  if (type === "boolean") return header === String(value);
  return header === value;
}

export function paramHeaderRefusal(req: HeaderSource, inputSchema: unknown, args: unknown): ModernRefusal | null {
  for (const p of headerParams(inputSchema)) {
    const value = valueAt(args, p.path);
    if (value === undefined || value === null) continue;
    const name = `Mcp-Param-${p.header}`;
    const raw = req.headers.get(name);
    const refuse = (why: string): ModernRefusal => ({ status: 400, code: MODERN_ERROR.headerMismatch, message: `Header mismatch: ${name} ${why}` });
    if (raw === null) return refuse(`is required: arguments.${p.path.join(".")} has a value`);
    const decoded = decodeHeaderValue(raw);
    if (!decoded.ok) return refuse(decoded.reason);
    if (!matches(p.type, decoded.value, value)) return refuse(`does not match arguments.${p.path.join(".")}`);
  }
  return null;
}
