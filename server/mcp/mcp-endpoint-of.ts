// Which MCP endpoint a request path names, the way the App Router routes under app/mcp match it: `/mcp`,
// `/mcp/code` and `/mcp/s/<slug>` exactly (no trailing slash; Next.js redirects those), the slug decoded.
import type { McpEndpoint } from "./handle-mcp-request";

/** The endpoint `url` (path and query) is addressed to, or null when it is not one (including undecodable paths). */
export function mcpEndpointOf(url: string): McpEndpoint | null {
  const pathname = url.split("?", 1)[0]!;
  if (pathname === "/mcp") return { kind: "aggregate" };
  if (pathname === "/mcp/code") return { kind: "code" };
  const slug = /^\/mcp\/s\/([^/]+)$/.exec(pathname)?.[1];
  if (slug === undefined) return null;
  try {
    return { kind: "server", slug: decodeURIComponent(slug) };
  } catch {
    return null;
  }
}
