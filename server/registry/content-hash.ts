// Content hashes over canonical JSON, so a server that reorders keys or list entries between connects does
// not produce a new version.
import { createHash } from "node:crypto";
import type { Tool } from "@modelcontextprotocol/sdk/types.js";
import { compareCodeUnits } from "../../lib/compare-code-units";
import type { UpstreamDefinitions } from "./definitions";

/**
 * JSON with object keys sorted recursively (by UTF-16 code unit, not locale); arrays keep their order.
 * Follows JSON.stringify for the rest: `undefined` members are dropped, non-finite numbers become null.
 */
export function canonicalJson(value: unknown): string {
  return write(value, new Set());
}

function write(value: unknown, ancestors: Set<object>): string {
  if (value === null || typeof value !== "object") {
    if (typeof value === "bigint") throw new TypeError("canonicalJson: a bigint has no JSON form");
    return JSON.stringify(value) ?? "null";
  }
  if (ancestors.has(value)) throw new TypeError("canonicalJson: the value is circular");
  ancestors.add(value);
  try {
    if (Array.isArray(value)) return `[${value.map((item: unknown) => write(item, ancestors)).join(",")}]`;
    const members = Object.keys(value)
      .sort(compareCodeUnits)
      .flatMap((key) => {
        const member: unknown = (value as Record<string, unknown>)[key];
        if (member === undefined || typeof member === "function" || typeof member === "symbol") return [];
        return [`${JSON.stringify(key)}:${write(member, ancestors)}`];
      });
    return `{${members.join(",")}}`;
  } finally {
    ancestors.delete(value);
  }
}

export function contentHash(value: unknown): string {
  return createHash("sha256").update(canonicalJson(value)).digest("hex");
}

export function toolHash(tool: Tool): string {
  return contentHash(tool);
}

/** Lists are sorted by identity (ties broken by content), so the order an upstream lists them in never matters. */
export function definitionsHash(defs: UpstreamDefinitions): string {
  return contentHash({
    serverInfo: defs.serverInfo,
    instructions: defs.instructions,
    capabilities: defs.capabilities,
    tools: sortBy(defs.tools, (tool) => tool.name),
    resources: sortBy(defs.resources, (resource) => resource.uri),
    resourceTemplates: sortBy(defs.resourceTemplates, (template) => template.uriTemplate),
    prompts: sortBy(defs.prompts, (prompt) => prompt.name),
  });
}

function sortBy<T>(items: readonly T[], key: (item: T) => string): T[] {
  return items
    .map((item) => ({ item, key: key(item), json: canonicalJson(item) }))
    .sort((a, b) => compareCodeUnits(a.key, b.key) || compareCodeUnits(a.json, b.json))
    .map(({ item }) => item);
}
