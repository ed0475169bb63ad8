// RFC 9728: each MCP endpoint is a protected resource whose identifier is its URL as clients build it from
// PUBLIC_URL, and whose metadata lives at /.well-known/oauth-protected-resource + the endpoint's path.
import { endpointName, type McpEndpoint } from "../mcp/mcp-endpoint";
import { mcpEndpointOf } from "../mcp/mcp-endpoint-of";
import type { OAuthConfig } from "./oauth-config";

export const METADATA_PREFIX = "/.well-known/oauth-protected-resource";

const base = (publicUrl: string) => publicUrl.replace(/\/+$/, "");
const pathOf = (e: McpEndpoint) => (e.kind === "server" ? `/mcp/s/${encodeURIComponent(e.slug)}` : `/${endpointName(e)}`);

export const resourceUrlOf = (publicUrl: string, e: McpEndpoint) => `${base(publicUrl)}${pathOf(e)}`;
export const metadataUrlOf = (publicUrl: string, e: McpEndpoint) => `${base(publicUrl)}${METADATA_PREFIX}${pathOf(e)}`;

/** The endpoint a metadata request names (one trailing slash accepted, as some clients send it), else null. */
export function metadataEndpointOf(url: string): McpEndpoint | null {
  const pathname = url.split("?", 1)[0]!;
  if (!pathname.startsWith(`${METADATA_PREFIX}/`)) return null;
  const rest = pathname.slice(METADATA_PREFIX.length);
  return mcpEndpointOf(rest.endsWith("/") ? rest.slice(0, -1) : rest);
}

export function protectedResourceMetadata(config: OAuthConfig, publicUrl: string, e: McpEndpoint) {
  return {
    resource: resourceUrlOf(publicUrl, e),
    authorization_servers: [config.issuer],
    scopes_supported: [...new Set([...config.requiredScopes, ...config.scopeTools.keys()])],
    bearer_methods_supported: ["header"],
    resource_name: `Portcullis ${endpointName(e)}`,
  };
}

/** The Bearer challenge of a 401/403: realm, where the metadata is, the scope to ask for, and the error. */
export function bearerChallenge(config: OAuthConfig | null, publicUrl: string, e: McpEndpoint, opts: { error?: string; scope?: string } = {}): string {
  const parts = ['realm="portcullis"'];
  if (opts.error) parts.push(`error="${opts.error}"`);
  const scope = opts.scope ?? (config?.requiredScopes.length ? config.requiredScopes.join(" ") : undefined);
  if (config && scope) parts.push(`scope="${scope}"`);
  if (config) parts.push(`resource_metadata="${metadataUrlOf(publicUrl, e)}"`);
  return `Bearer ${parts.join(", ")}`;
}

/** Whether `url` is under the metadata prefix (those paths are ours to answer, 404 included). */
export const isResourceMetadataPath = (url: string) => {
  const pathname = url.split("?", 1)[0]!;
  return pathname === METADATA_PREFIX || pathname.startsWith(`${METADATA_PREFIX}/`);
};
