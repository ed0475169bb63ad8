// GET /.well-known/oauth-protected-resource/mcp[/code|/s/<slug>] – RFC 9728 metadata of one MCP endpoint. Served
// by `portcullis start`'s fast path and by the App Router route alike. 404 when OAuth is not configured, and for
// an unknown or disabled server (as the endpoint itself answers).
import type { McpEndpoint } from "../mcp/mcp-endpoint";
import type { OAuthConfig } from "./oauth-config";
import { protectedResourceMetadata } from "./protected-resource";

export type ResourceMetadataDeps = { config: OAuthConfig | null; publicUrl: string; endpointExists(e: McpEndpoint): Promise<boolean> };

const notFound = () => new Response(JSON.stringify({ error: { code: "not_found", message: "Not found" } }), { status: 404, headers: { "content-type": "application/json" } });

export async function serveResourceMetadata(deps: ResourceMetadataDeps, req: Request, endpoint: McpEndpoint | null): Promise<Response> {
  if (!deps.config || !endpoint) return notFound();
  if (req.method !== "GET" && req.method !== "HEAD") return new Response(null, { status: 405, headers: { allow: "GET, HEAD" } });
  if (!(await deps.endpointExists(endpoint))) return notFound();
  return new Response(JSON.stringify(protectedResourceMetadata(deps.config, deps.publicUrl, endpoint)), {
    status: 200,
    // Public by design (RFC 9728 §3): browser-based clients read it cross-origin.
    headers: { "content-type": "application/json", "cache-control": "public, max-age=300", "access-control-allow-origin": "*" },
  });
}
