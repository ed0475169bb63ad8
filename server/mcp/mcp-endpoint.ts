// The MCP endpoints a request can be addressed to, and their names (as stored on MCP sessions and in paths).

/**
 * `/mcp` (all servers, prefixed names), `/mcp/code`, `/mcp/s/<slug>` (one server, transparent) or
 * `/mcp/v/<name>` (a virtual server: members of several servers under their own names, issue 23).
 */
export type McpEndpoint = { kind: "aggregate" } | { kind: "code" } | { kind: "server"; slug: string } | { kind: "virtual"; name: string };

export const endpointName = (e: McpEndpoint) =>
  e.kind === "aggregate" ? "mcp" : e.kind === "code" ? "mcp/code" : e.kind === "server" ? `mcp/s/${e.slug}` : `mcp/v/${e.name}`;
