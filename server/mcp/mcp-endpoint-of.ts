// Which MCP endpoint a request path names, the way the App Router routes under app/mcp match it: `/mcp`,
// `/mcp/code`, `/mcp/s/<slug>` and `/mcp/v/<name>` exactly (no trailing slash; Next.js redirects those), the
// slug or name decoded.
import type { McpEndpoint } from "./handle-mcp-request";

/** The endpoint `url` (path and query) is addressed to, or null when it is not one (including undecodable paths). */
export function mcpEndpointOf(url: string): McpEndpoint | null {
  const pathname = url.split("?", 1)[0]!;
  if (pathname === "/mcp") return { kind: "aggregate" };
  if (pathname === "/mcp/code") return { kind: "code" };
  const [, kind, segment] = /^\/mcp\/([sv])\/([^/]+)$/.exec(pathname) ?? [];
  if (segment === undefined) return null;
  try {
    const decoded = decodeURIComponent(segment);
    return kind === "s" ? { kind: "server", slug: decoded } : { kind: "virtual", name: decoded };
  } catch {
    return null;
  }
}
