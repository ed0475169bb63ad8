// The grants the MCP SDK's client module does not make: client_credentials, token exchange (RFC 8693) and
// revocation (RFC 7009). One form POST with the client's authentication (client_secret_basic when it has a
// secret and the server takes it, else client_secret_post, else the id alone: a public client).
import type { OAuthClientInformationMixed, OAuthTokens } from "@modelcontextprotocol/sdk/shared/auth.js";
import type { AsMetadata as AuthorizationServerMetadata } from "./discover-authorization-server";
import { OAuthTokensSchema } from "@modelcontextprotocol/sdk/shared/auth.js";
import { GatewayError } from "../errors";

/** The provider answered an error (invalid_grant, …): its OAuth error code, never the request's tokens. */
export class TokenEndpointError extends Error {
  override name = "TokenEndpointError";
  constructor(
    readonly oauthError: string,
    readonly httpStatus: number,
    description?: string,
  ) {
    super(`${oauthError}${description ? `: ${description}` : ""} (HTTP ${String(httpStatus)})`);
  }
}

function authenticate(client: OAuthClientInformationMixed, metadata: AuthorizationServerMetadata, params: URLSearchParams, headers: Headers): void {
  const secret = "client_secret" in client ? client.client_secret : undefined;
  const methods = metadata.token_endpoint_auth_methods_supported ?? ["client_secret_basic"];
  if (secret && methods.includes("client_secret_basic")) {
    headers.set("authorization", `Basic ${Buffer.from(`${encodeURIComponent(client.client_id)}:${encodeURIComponent(secret)}`).toString("base64")}`);
    return;
  }
  params.set("client_id", client.client_id);
  if (secret) params.set("client_secret", secret);
}

async function post(url: string, client: OAuthClientInformationMixed, metadata: AuthorizationServerMetadata, params: URLSearchParams, fetchFn: typeof fetch): Promise<Response> {
  const headers = new Headers({ "content-type": "application/x-www-form-urlencoded", accept: "application/json" });
  authenticate(client, metadata, params, headers);
  return fetchFn(url, { method: "POST", headers, body: params, signal: AbortSignal.timeout(30_000) });
}

export async function requestToken(metadata: AuthorizationServerMetadata, client: OAuthClientInformationMixed, params: Record<string, string>, fetchFn: typeof fetch = fetch): Promise<OAuthTokens> {
  const res = await post(metadata.token_endpoint, client, metadata, new URLSearchParams(params), fetchFn);
  const body = (await res.json().catch(() => ({}))) as Record<string, unknown>;
  if (!res.ok) throw new TokenEndpointError(typeof body.error === "string" ? body.error : "server_error", res.status, typeof body.error_description === "string" ? body.error_description : undefined);
  const parsed = OAuthTokensSchema.safeParse(body);
  if (!parsed.success) throw new GatewayError("upstream_auth_failed", `${metadata.issuer} answered the ${params.grant_type ?? "token"} grant without a usable token.`);
  return parsed.data;
}

/** RFC 7009 when the server advertises a revocation endpoint; true when it accepted (or had nothing to revoke). */
export async function revokeToken(metadata: AuthorizationServerMetadata, client: OAuthClientInformationMixed, token: string, hint: "access_token" | "refresh_token", fetchFn: typeof fetch = fetch): Promise<boolean> {
  if (!metadata.revocation_endpoint) return false;
  const res = await post(metadata.revocation_endpoint, client, metadata, new URLSearchParams({ token, token_type_hint: hint }), fetchFn);
  await res.body?.cancel();
  return res.ok;
}
