// What `portcullis start` answers itself, before Next.js: the MCP endpoints (the hot path), their RFC 9728
// metadata (whose trailing-slash forms Next.js would redirect, and whose dot-prefixed folder it does not route),
// and the readiness probe (asked every few seconds by every load balancer; app/api/ready/route.ts answers it the
// same way under `next dev`).
import { mcpEndpointOf } from "../mcp/mcp-endpoint-of";
import type { McpEndpoint } from "../mcp/mcp-endpoint";
import { isResourceMetadataPath, metadataEndpointOf } from "../oauth/protected-resource";

export type FastPath = { kind: "mcp"; endpoint: McpEndpoint } | { kind: "resource-metadata"; endpoint: McpEndpoint | null } | { kind: "ready" };

export function fastPathOf(method: string, url: string): FastPath | null {
  if (method === "GET" && (url === "/api/ready" || url.startsWith("/api/ready?"))) return { kind: "ready" };
  if (method === "GET" && isResourceMetadataPath(url)) return { kind: "resource-metadata", endpoint: metadataEndpointOf(url) };
  // HEAD and OPTIONS of the MCP endpoints stay Next.js's answers.
  const endpoint = method === "GET" || method === "POST" || method === "DELETE" ? mcpEndpointOf(url) : null;
  return endpoint && { kind: "mcp", endpoint };
}
