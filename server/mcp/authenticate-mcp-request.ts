// Who is calling an MCP endpoint: an agent session token (pcs_…) or, in enterprise mode, an OAuth access token
// of the configured authorization server. A refusal is a 401 whose Bearer challenge names the endpoint's
// protected resource metadata (RFC 9728) so an OAuth client can discover where to sign in; a call of a tool the
// token's scopes do not reach is a 403 insufficient_scope naming the scope to step up to.
import type { JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";
import { isGatewayError } from "../errors";
import { toGatewayName } from "../registry/gateway-name";
import type { AgentPrincipal } from "../sessions/session-auth";
import type { McpEndpoint } from "./mcp-endpoint";
import { jsonRpcError } from "./json-rpc-error";

/** An OAuth-authenticated caller: an agent principal whose whitelist is already narrowed to its scopes. */
export type OAuthPrincipal = AgentPrincipal & {
  /**
   * The scope a call of `gatewayName` needs when the token's scopes do not reach it, some scope would, and the
   * user holds the tool (otherwise no sign-in can help: the whitelist refuses the call as for any session).
   */
  stepUpScope(gatewayName: string): Promise<string | undefined>;
  /**
   * The caller's access token when the external identity provider issued it (enterprise mode): the subject token
   * of `token_exchange` upstreams (issue 22). A function, so that no log or copy of the principal holds it.
   */
  subjectToken?: (() => string) | undefined;
};

/** Enterprise mode's side of the endpoints (server/oauth/mcp-oauth.ts); absent when OAuth is not configured. */
export type McpOAuth = {
  authenticate(token: string, endpoint: McpEndpoint): Promise<OAuthPrincipal>;
  challenge(endpoint: McpEndpoint, opts?: { error?: string; scope?: string }): string;
};

type AuthDeps = { authenticate(token: string): Promise<AgentPrincipal>; oauth?: McpOAuth | undefined };

const HINT = "Authentication required: send `Authorization: Bearer <agent session token>` (pcs_…, from the console's Agents page or POST /api/v1/sessions)";

export async function authenticateMcpRequest(deps: AuthDeps, req: { headers: { get(name: string): string | null } }, endpoint: McpEndpoint): Promise<AgentPrincipal | OAuthPrincipal | Response> {
  const header = req.headers.get("authorization") ?? "";
  const [scheme, token] = header.split(/\s+/, 2);
  const challenge = (error?: string) => ({ "www-authenticate": deps.oauth ? deps.oauth.challenge(endpoint, error ? { error } : {}) : 'Bearer realm="portcullis"' });
  if (scheme?.toLowerCase() !== "bearer" || !token) {
    return jsonRpcError(401, -32001, deps.oauth ? `${HINT}, or an OAuth access token of this resource's authorization server.` : `${HINT}.`, challenge());
  }
  // Our own tokens keep their own path; anything else is an OAuth access token when enterprise mode is on.
  const ours = !deps.oauth || token.startsWith("pcs_") || token.startsWith("pct_");
  try {
    return ours ? await deps.authenticate(token) : await deps.oauth!.authenticate(token, endpoint);
  } catch (err) {
    if (!isGatewayError(err)) throw err;
    if (err.code === "invalid_token") return jsonRpcError(401, -32001, err.message, challenge(deps.oauth ? "invalid_token" : undefined));
    return jsonRpcError(err.status, -32000, err.message, err.retryAfterSeconds === undefined ? {} : { "retry-after": String(err.retryAfterSeconds) }, { code: err.code });
  }
}

/**
 * 403 insufficient_scope for a tools/call the caller's scopes do not reach, else null. Checked here, before the
 * endpoint handles anything, so the client sees an HTTP answer it can step up on; tools/list leaves such tools
 * out through the narrowed whitelist. Code mode's tools call tools from inside a program: there the whitelist
 * refuses them like any other tool outside the session.
 */
export async function scopeRefusal(oauth: McpOAuth | undefined, principal: AgentPrincipal | OAuthPrincipal, endpoint: McpEndpoint, messages: readonly JSONRPCMessage[]): Promise<Response | null> {
  // A virtual server names tools its own way: its whitelist step refuses what the scopes do not reach.
  if (!oauth || !("stepUpScope" in principal) || endpoint.kind === "code" || endpoint.kind === "virtual") return null;
  for (const m of messages) {
    const call = m as { method?: unknown; params?: { name?: unknown } };
    if (call.method !== "tools/call" || typeof call.params?.name !== "string") continue;
    let gatewayName = call.params.name;
    if (endpoint.kind === "server") {
      try {
        gatewayName = toGatewayName(endpoint.slug, gatewayName);
      } catch {
        continue; // an invalid name is the endpoint's to refuse
      }
    }
    const scope = await principal.stepUpScope(gatewayName);
    if (scope) {
      return jsonRpcError(403, -32001, `The access token's scopes do not reach ${call.params.name}: ask for the scope "${scope}".`, { "www-authenticate": oauth.challenge(endpoint, { error: "insufficient_scope", scope }) }, { code: "insufficient_scope", scope });
    }
  }
  return null;
}
