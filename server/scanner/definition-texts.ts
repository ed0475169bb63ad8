// Every piece of text of a definition that reaches the model: names, titles, descriptions, and inside the
// schemas the property names, descriptions, enum values, defaults and examples (full-schema poisoning hides
// its orders there, not only in the description).
import type { Prompt, Resource, ResourceTemplate, Tool } from "@modelcontextprotocol/sdk/types.js";
import type { ScanText } from "./scan-types";

// Upstream schemas are untrusted; real ones are a few levels deep, a hostile one could exhaust the stack.
const MAX_DEPTH = 32;
const SCHEMA_TEXT_KEYS = ["description", "title", "default", "examples", "enum", "const", "$comment"] as const;

export function toolTexts(tool: Tool): ScanText[] {
  const at = `tool:${tool.name}`;
  const out: ScanText[] = [{ where: `${at}.name`, kind: "name", text: tool.name }];
  pushText(out, `${at}.title`, tool.title);
  pushText(out, `${at}.description`, tool.description);
  pushText(out, `${at}.annotations.title`, tool.annotations?.title);
  schemaTexts(out, `${at}.inputSchema`, tool.inputSchema, 0);
  if (tool.outputSchema) schemaTexts(out, `${at}.outputSchema`, tool.outputSchema, 0);
  return out;
}

export function promptTexts(prompt: Prompt): ScanText[] {
  const at = `prompt:${prompt.name}`;
  const out: ScanText[] = [{ where: `${at}.name`, kind: "name", text: prompt.name }];
  pushText(out, `${at}.title`, prompt.title);
  pushText(out, `${at}.description`, prompt.description);
  for (const arg of prompt.arguments ?? []) {
    out.push({ where: `${at}.arguments.${arg.name}`, kind: "name", text: arg.name });
    pushText(out, `${at}.arguments.${arg.name}.description`, arg.description);
  }
  return out;
}

export function resourceTexts(kind: "resource" | "resourceTemplate", r: Resource | ResourceTemplate): ScanText[] {
  const id = "uriTemplate" in r ? r.uriTemplate : r.uri;
  const at = `${kind}:${id}`;
  const out: ScanText[] = [{ where: `${at}.name`, kind: "name", text: r.name }];
  pushText(out, `${at}.uri`, id);
  pushText(out, `${at}.title`, r.title);
  pushText(out, `${at}.description`, r.description);
  return out;
}

function pushText(out: ScanText[], where: string, value: unknown) {
  if (typeof value === "string" && value !== "") out.push({ where, kind: "text", text: value });
}

function schemaTexts(out: ScanText[], at: string, node: unknown, depth: number) {
  if (depth > MAX_DEPTH || typeof node !== "object" || node === null) return;
  if (Array.isArray(node)) {
    node.forEach((item, i) => schemaTexts(out, `${at}.${i}`, item, depth + 1));
    return;
  }
  const schema = node as Record<string, unknown>;
  for (const key of SCHEMA_TEXT_KEYS) {
    const value = schema[key];
    if (typeof value === "string") pushText(out, `${at}.${key}`, value);
    else if (Array.isArray(value)) value.forEach((v, i) => pushText(out, `${at}.${key}.${i}`, v));
  }
  for (const [key, value] of Object.entries(schema)) {
    if (key === "properties" && typeof value === "object" && value !== null && !Array.isArray(value)) {
      for (const [name, child] of Object.entries(value)) {
        out.push({ where: `${at}.properties.${name}`, kind: "name", text: name });
        schemaTexts(out, `${at}.properties.${name}`, child, depth + 1);
      }
    } else if (!(SCHEMA_TEXT_KEYS as readonly string[]).includes(key) && typeof value === "object") {
      schemaTexts(out, `${at}.${key}`, value, depth + 1);
    }
  }
}
