// The MCP endpoints with the embedded authorization server: a verified access token → the agent session its
// consent created → the same checks as a pcs_ session (revoked, expired, user disabled → invalid_token). The
// session's whitelist is what the user consented to; a call outside it, of a tool the user holds, is a 403
// insufficient_scope so the client can send the user back to consent to more.
import type { AgentSession, Db, User } from "../../db/client";
import { GatewayError } from "../../errors";
import type { ChangeBus } from "../../events/change-bus";
import { createInvalidatedCache } from "../../events/invalidated-cache";
import type { Logger } from "../../logger";
import type { OAuthPrincipal } from "../../mcp/authenticate-mcp-request";
import { checkAgentSession } from "../../policy/check-agent-session";
import { matchesAny } from "../../policy/patterns";
import type { HeldGrant } from "../../policy/policy-cache";
import { SESSION_CACHE_TTL_MS, touchAgentSession } from "../../sessions/session-auth";
import type { McpOAuthService } from "../mcp-oauth";
import type { OAuthConfig } from "../oauth-config";
import { oauthAgentId } from "../oauth-session";
import { bearerChallenge, resourceUrlOf } from "../protected-resource";
import type { TokenVerifier } from "../token-verifier";
import { OAUTH_SCOPE, type AuthorizationServerConfig } from "./authorization-server-config";

/** The protected-resource side of embedded mode, in the shape the metadata and challenges are built from. */
export function embeddedResourceConfig(config: AuthorizationServerConfig): OAuthConfig {
  return { issuer: config.issuer, audience: null, requiredScopes: [OAUTH_SCOPE], scopeTools: new Map(), userClaim: "sub", defaultRole: "USER", algorithms: ["ES256"], clockToleranceSeconds: 0 };
}

type Row = AgentSession & { user: User };

export function createEmbeddedMcpOAuth(deps: { db: Db; bus: ChangeBus; logger: Logger; config: AuthorizationServerConfig; verifier: TokenVerifier; held(user: User): Promise<HeldGrant> }): McpOAuthService {
  const { db, config } = deps;
  const resourceConfig = embeddedResourceConfig(config);
  const sessions = createInvalidatedCache<Row>({
    bus: deps.bus,
    ttlMs: SESSION_CACHE_TTL_MS,
    invalidates: (e) => (e.kind === "agent_session" ? e.sessionId : e.kind === "user" ? (_k, s) => s.userId === e.userId : undefined),
  });

  return {
    async authenticate(token, endpoint): Promise<OAuthPrincipal> {
      const verified = await deps.verifier.verify(token, resourceUrlOf(config.issuer, endpoint));
      const sessionId = verified.sessionId!;
      const row = await sessions.get(sessionId, () => db.agentSession.findUnique({ where: { id: sessionId }, include: { user: true } }));
      // A token names its session; the session must be this client's and this user's (never another's).
      if (row && (row.userId !== verified.userKey || row.agentId !== oauthAgentId(verified.clientId))) throw new GatewayError("invalid_token", "The access token does not match its agent session.");
      const principal = checkAgentSession(row);
      touchAgentSession(db, deps.logger, principal.session);
      return {
        ...principal,
        stepUpScope: async (gatewayName) => {
          if (matchesAny(principal.grant.tools, gatewayName)) return undefined;
          return matchesAny((await deps.held(principal.user)).tools, gatewayName) ? OAUTH_SCOPE : undefined;
        },
      };
    },
    challenge: (endpoint, opts) => bearerChallenge(resourceConfig, config.issuer, endpoint, opts),
    close: () => sessions.close(),
  };
}
