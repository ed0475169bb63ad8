// Enterprise mode on the MCP endpoints: a verified access token → its user (created on first use) → the
// agent session of its client → a principal whose whitelist is narrowed to the tools the token's scopes reach.
// The (user, client) → session lookup is cached per process and dropped through the change bus when the session
// is revoked or its user changes, as pcs_ sessions are (sessions/session-auth.ts).
import type { Db, User } from "../db/client";
import { GatewayError } from "../errors";
import type { ChangeBus } from "../events/change-bus";
import type { Logger } from "../logger";
import { createInvalidatedCache } from "../events/invalidated-cache";
import type { McpEndpoint } from "../mcp/mcp-endpoint";
import type { McpOAuth, OAuthPrincipal } from "../mcp/authenticate-mcp-request";
import { checkAgentSession } from "../policy/check-agent-session";
import { matchesAny } from "../policy/patterns";
import type { HeldGrant } from "../policy/policy-cache";
import { SESSION_CACHE_TTL_MS, touchAgentSession } from "../sessions/session-auth";
import type { OAuthConfig } from "./oauth-config";
import { assertIssuedAfterRevocation, findOAuthSession, openOAuthSession, type OAuthSession } from "./oauth-session";
import { emailOfUserKey, findOrCreateOAuthUser } from "./oauth-user";
import { bearerChallenge, resourceUrlOf } from "./protected-resource";
import { scopeReaching, toolsForScopes } from "./scope-tools";
import type { TokenVerifier } from "./token-verifier";

export type McpOAuthService = McpOAuth & { close(): void };

export function createMcpOAuth(deps: { db: Db; bus: ChangeBus; logger: Logger; config: OAuthConfig; publicUrl: string; verifier: TokenVerifier; held(user: User): Promise<HeldGrant> }): McpOAuthService {
  const { db, config, publicUrl } = deps;
  const sessions = createInvalidatedCache<OAuthSession>({
    bus: deps.bus,
    ttlMs: SESSION_CACHE_TTL_MS,
    // A revocation drops the entry of the revoked session, so the next request reads the new revocation time.
    invalidates: (e) =>
      e.kind === "agent_session" ? (_k, s) => s.row.id === e.sessionId : e.kind === "user" ? (_k, s) => s.row.userId === e.userId : undefined,
  });

  async function open(userKey: string, clientId: string, issuedAt: number): Promise<OAuthSession> {
    const user = await findOrCreateOAuthUser(db, config, userKey);
    if (user.disabled) throw new GatewayError("invalid_token", `The user ${user.email} is disabled.`); // and gets no session row
    return openOAuthSession(db, user, clientId, issuedAt);
  }

  return {
    async authenticate(token: string, endpoint: McpEndpoint): Promise<OAuthPrincipal> {
      const verified = await deps.verifier.verify(token, resourceUrlOf(publicUrl, endpoint));
      // Cached: the usable session of (user, client). Opened (user and session created) outside the cache, so a
      // token refused there leaves nothing behind for the tokens that share the key.
      const key = JSON.stringify([verified.userKey, verified.clientId]);
      const found = await sessions.get(key, async () => {
        const user = await db.user.findUnique({ where: { email: emailOfUserKey(config, verified.userKey) } });
        return user && findOAuthSession(db, user.id, verified.clientId);
      });
      const session = found ?? (await open(verified.userKey, verified.clientId, verified.issuedAt));
      assertIssuedAfterRevocation(session, verified.issuedAt);
      const principal = checkAgentSession(session.row); // a cached session may have expired since, or its user been disabled
      touchAgentSession(db, deps.logger, session.row);
      const tools = toolsForScopes(config.scopeTools, verified.scopes);
      return {
        ...principal,
        grant: { ...principal.grant, tools },
        subjectToken: () => token,
        stepUpScope: async (gatewayName) => {
          if (matchesAny(tools, gatewayName)) return undefined;
          return matchesAny((await deps.held(principal.user)).tools, gatewayName) ? scopeReaching(config.scopeTools, gatewayName) : undefined;
        },
      };
    },
    challenge: (endpoint, opts) => bearerChallenge(config, publicUrl, endpoint, opts),
    close: () => sessions.close(),
  };
}
