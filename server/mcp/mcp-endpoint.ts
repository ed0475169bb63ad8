// The MCP endpoints a request can be addressed to, and their names (as stored on MCP sessions and in paths).

/** `/mcp` (all servers, prefixed names) or `/mcp/s/<slug>` (one server, transparent). */
export type McpEndpoint = { kind: "aggregate" } | { kind: "code" } | { kind: "server"; slug: string };

export const endpointName = (e: McpEndpoint) => (e.kind === "aggregate" ? "mcp" : e.kind === "code" ? "mcp/code" : `mcp/s/${e.slug}`);
