// search_tools' index of a session's tools, shared across requests: MCP servers are built per HTTP request,
// and indexing 500 tools takes a few hundred milliseconds, while hashing their definitions takes about one.
import { createHash } from "node:crypto";
import type { Tool } from "@modelcontextprotocol/sdk/types.js";
import { parseGatewayName } from "../registry/gateway-name";
import type { SemanticRanker, SemanticToolSet } from "./embeddings/semantic-ranker";
import { createToolIndex, type IndexableTool, type ToolIndex } from "./tool-search";

const MAX_ENTRIES = 32;
const indexes = new Map<string, ToolIndex>();
const sets = new Map<string, SemanticToolSet>();

/** What search knows of a session's tools beside their definitions: server lines and admins' example requests. */
export type SearchExtras = {
  serverSummaries?: ReadonlyMap<string, string | null>;
  /** By gateway name (tool-routing.ts toolExampleRequests). */
  exampleRequests?: ReadonlyMap<string, readonly string[]>;
};

/** Code mode's view of the tools: gateway names split into server and tool, with the server's one line and the tool's example requests when there are. */
export function searchable(tools: readonly Tool[], extras: SearchExtras = {}): IndexableTool[] {
  return tools.flatMap((t) => {
    const p = parseGatewayName(t.name);
    if (!p) return [];
    const examples = extras.exampleRequests?.get(t.name);
    return [
      {
        name: t.name,
        server: p.slug,
        tool: p.tool,
        title: t.title ?? null,
        description: t.description ?? null,
        inputSchema: t.inputSchema,
        outputSchema: t.outputSchema ?? null,
        serverDescription: extras.serverSummaries?.get(p.slug) ?? null,
        ...(examples && examples.length > 0 && { exampleRequests: examples }),
      },
    ];
  });
}

/** The index of exactly these tool definitions (what a session may call, in its version), server lines and example requests, built once. */
export function cachedToolIndex(tools: readonly Tool[], extras: SearchExtras = {}): ToolIndex {
  // Keyed by what goes in, so a hit builds nothing (search_tools asks on every call).
  const key = createHash("sha256")
    .update(JSON.stringify(tools))
    .update(JSON.stringify(extras.serverSummaries ? [...extras.serverSummaries] : []))
    .update(JSON.stringify(extras.exampleRequests ? [...extras.exampleRequests] : []))
    .digest("hex");
  return memo(indexes, key, () => createToolIndex(searchable(tools, extras)));
}

/** The semantic ranker's view of these tools (their texts and hashes), made once per definition version; its fill starts at once. */
export function cachedSemanticSet(ranker: SemanticRanker, tools: readonly Tool[]): SemanticToolSet {
  const key = `${ranker.providerId}:${createHash("sha256").update(JSON.stringify(tools)).digest("hex")}`;
  return memo(sets, key, () => {
    const set = ranker.prepare(searchable(tools));
    void ranker.warm(set);
    return set;
  });
}

/** Least recently used entries go first once MAX_ENTRIES are kept. */
function memo<T>(cache: Map<string, T>, key: string, make: () => T): T {
  const hit = cache.get(key);
  if (hit) {
    cache.delete(key);
    cache.set(key, hit);
    return hit;
  }
  const made = make();
  cache.set(key, made);
  if (cache.size > MAX_ENTRIES) cache.delete(cache.keys().next().value!);
  return made;
}
