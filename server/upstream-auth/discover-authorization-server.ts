// Where an upstream's tokens come from: its protected resource metadata (RFC 9728, from the 401's
// WWW-Authenticate or the well-known path), then the authorization server's metadata (RFC 8414, else OpenID
// discovery). The MCP SDK's client auth module does the fetching (the conformance scenarios are written against
// its behaviour); this adds the checks Portcullis makes on top: the metadata's resource must be the server's own
// URL (a mismatch is refused, never followed), and the metadata's issuer is the one tokens are bound to.
import { discoverOAuthServerInfo, extractWWWAuthenticateParams } from "@modelcontextprotocol/sdk/client/auth.js";
import type { AuthorizationServerMetadata } from "@modelcontextprotocol/sdk/shared/auth.js";
import { GatewayError } from "../errors";

/** The fields read besides the SDK's typed ones (its OpenID discovery schema drops them). */
export type AsMetadata = AuthorizationServerMetadata & { revocation_endpoint?: string; authorization_response_iss_parameter_supported?: boolean };

export type AuthorizationServer = {
  issuer: string;
  metadata: AsMetadata;
  /** The resource indicator (RFC 8707) tokens are asked for: the metadata's `resource`, else the server's URL. */
  resource: string;
  /** Scopes the resource advertises (RFC 9728 scopes_supported, or the 401's scope): the default request. */
  scopes: string[];
};

const CACHE_MS = 5 * 60_000;
const cache = new Map<string, { at: number; value: Promise<AuthorizationServer> }>();

const withoutSlash = (url: string) => url.replace(/\/+$/, "");

/** Same origin and the metadata's path a prefix of the server's (RFC 9728 §3.3 with MCP's path rules). */
export function resourceMatches(resource: string, serverUrl: string): boolean {
  try {
    const r = new URL(resource);
    const s = new URL(serverUrl);
    const path = r.pathname.endsWith("/") ? r.pathname : `${r.pathname}/`;
    return r.origin === s.origin && (s.pathname === r.pathname || `${s.pathname}/`.startsWith(path));
  } catch {
    return false;
  }
}

async function discover(serverUrl: string, fetchFn: typeof fetch): Promise<AuthorizationServer> {
  // The server's own 401 names its metadata (and maybe the scope it wants); a server that answers 200 has none.
  let resourceMetadataUrl: URL | undefined;
  let challengeScope: string | undefined;
  try {
    const probe = await fetchFn(serverUrl, { method: "POST", headers: { "content-type": "application/json", accept: "application/json, text/event-stream" }, body: JSON.stringify({ jsonrpc: "2.0", id: 0, method: "ping" }) });
    if (probe.status === 401) ({ resourceMetadataUrl, scope: challengeScope } = extractWWWAuthenticateParams(probe));
    await probe.body?.cancel();
  } catch (err) {
    throw new GatewayError("upstream_auth_failed", `The upstream ${serverUrl} could not be reached for discovery.`, undefined, { cause: err });
  }
  // The metadata documents as served: the SDK's OpenID schema strips revocation_endpoint and the RFC 9207 flag.
  const served: Record<string, unknown>[] = [];
  const recording: typeof fetch = async (input, init) => {
    const res = await fetchFn(input, init);
    const url = typeof input === "string" ? input : input instanceof URL ? input.href : input.url;
    if (res.ok && /\/\.well-known\/(oauth-authorization-server|openid-configuration)/.test(url)) {
      const doc = (await res.clone().json().catch(() => null)) as unknown;
      if (doc && typeof doc === "object") served.push(doc as Record<string, unknown>);
    }
    return res;
  };
  const info = await discoverOAuthServerInfo(serverUrl, { ...(resourceMetadataUrl && { resourceMetadataUrl }), fetchFn: recording }).catch((err: unknown) => {
    throw new GatewayError("upstream_auth_failed", `The authorization server of ${serverUrl} could not be discovered: ${(err as Error).message}`, undefined, { cause: err });
  });
  const typed = info.authorizationServerMetadata;
  const raw = served.find((d) => d.issuer === typed?.issuer);
  const metadata: AsMetadata | undefined = typed && {
    ...typed,
    ...(typeof raw?.revocation_endpoint === "string" && { revocation_endpoint: raw.revocation_endpoint }),
    ...(raw?.authorization_response_iss_parameter_supported === true && { authorization_response_iss_parameter_supported: true }),
  };
  if (!metadata) throw new GatewayError("upstream_auth_failed", `${info.authorizationServerUrl} publishes no authorization server metadata (RFC 8414 or OpenID discovery).`);
  // RFC 8414 §3.3: metadata whose issuer is not the one its well-known URL was built from is not used at all.
  if (withoutSlash(metadata.issuer) !== withoutSlash(info.authorizationServerUrl)) {
    throw new GatewayError("upstream_auth_failed", `The metadata of ${info.authorizationServerUrl} names another issuer (${metadata.issuer}): refused.`);
  }
  const resource = info.resourceMetadata?.resource ?? serverUrl;
  if (info.resourceMetadata && !resourceMatches(String(resource), serverUrl)) {
    throw new GatewayError("upstream_auth_failed", `The protected resource metadata of ${serverUrl} names another resource (${String(resource)}): refused.`);
  }
  const scopes = challengeScope ? challengeScope.split(" ").filter(Boolean) : (info.resourceMetadata?.scopes_supported ?? []);
  return { issuer: metadata.issuer, metadata, resource: String(resource), scopes };
}

/** Discovery for one server URL, cached in this process for a few minutes (a failure is not cached). */
export function discoverAuthorizationServer(serverUrl: string, fetchFn: typeof fetch = fetch, fresh = false): Promise<AuthorizationServer> {
  const hit = cache.get(serverUrl);
  if (hit && !fresh && Date.now() - hit.at < CACHE_MS) return hit.value;
  const value = discover(serverUrl, fetchFn);
  cache.set(serverUrl, { at: Date.now(), value });
  value.catch(() => {
    if (cache.get(serverUrl)?.value === value) cache.delete(serverUrl);
  });
  return value;
}
