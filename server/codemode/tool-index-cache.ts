// search_tools' index of a session's tools, shared across requests: MCP servers are built per HTTP request,
// and indexing 500 tools takes a few hundred milliseconds, while hashing their definitions takes about one.
import { createHash } from "node:crypto";
import type { Tool } from "@modelcontextprotocol/sdk/types.js";
import { parseGatewayName } from "../registry/gateway-name";
import { createToolIndex, type SearchableTool, type ToolIndex } from "./tool-search";

const MAX_ENTRIES = 32;
const cache = new Map<string, ToolIndex>();

export function searchable(tools: readonly Tool[]): SearchableTool[] {
  return tools.flatMap((t) => {
    const p = parseGatewayName(t.name);
    return p
      ? [{ name: t.name, server: p.slug, tool: p.tool, title: t.title ?? null, description: t.description ?? null, inputSchema: t.inputSchema, outputSchema: t.outputSchema ?? null }]
      : [];
  });
}

/** The index of exactly these tool definitions (what a session may call, in its version), built once. */
export function cachedToolIndex(tools: readonly Tool[]): ToolIndex {
  const key = createHash("sha256").update(JSON.stringify(tools)).digest("hex");
  const hit = cache.get(key);
  if (hit) {
    // Most recently used last: the first entry is the one to drop.
    cache.delete(key);
    cache.set(key, hit);
    return hit;
  }
  const index = createToolIndex(searchable(tools));
  cache.set(key, index);
  if (cache.size > MAX_ENTRIES) cache.delete(cache.keys().next().value!);
  return index;
}
