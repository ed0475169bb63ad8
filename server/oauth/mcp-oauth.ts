// Enterprise mode on the MCP endpoints: a verified access token → its user (created on first use) → the
// agent session of its client → a principal whose whitelist is narrowed to the tools the token's scopes reach.
// The (user, client) → session lookup is cached per process and dropped through the change bus when the session
// is revoked or its user changes, as pcs_ sessions are (sessions/session-auth.ts).
import type { Db } from "../db/client";
import { GatewayError } from "../errors";
import type { ChangeBus } from "../events/change-bus";
import type { Logger } from "../logger";
import { createInvalidatedCache } from "../events/invalidated-cache";
import type { McpEndpoint } from "../mcp/mcp-endpoint";
import type { McpOAuth, OAuthPrincipal } from "../mcp/authenticate-mcp-request";
import { checkAgentSession } from "../policy/check-agent-session";
import { matchesAny } from "../policy/patterns";
import { SESSION_CACHE_TTL_MS, touchAgentSession } from "../sessions/session-auth";
import type { OAuthConfig } from "./oauth-config";
import { findOrCreateOAuthSession, type OAuthSessionRow } from "./oauth-session";
import { findOrCreateOAuthUser } from "./oauth-user";
import { bearerChallenge, resourceUrlOf } from "./protected-resource";
import { scopeReaching, toolsForScopes } from "./scope-tools";
import type { TokenVerifier } from "./token-verifier";

export type McpOAuthService = McpOAuth & { close(): void };

export function createMcpOAuth(deps: { db: Db; bus: ChangeBus; logger: Logger; config: OAuthConfig; publicUrl: string; verifier: TokenVerifier }): McpOAuthService {
  const { db, config, publicUrl } = deps;
  const sessions = createInvalidatedCache<OAuthSessionRow>({
    bus: deps.bus,
    ttlMs: SESSION_CACHE_TTL_MS,
    invalidates: (e) =>
      e.kind === "agent_session" ? (_k, row) => row.id === e.sessionId : e.kind === "user" ? (_k, row) => row.userId === e.userId : undefined,
  });

  return {
    async authenticate(token: string, endpoint: McpEndpoint): Promise<OAuthPrincipal> {
      const verified = await deps.verifier.verify(token, resourceUrlOf(publicUrl, endpoint));
      const row = await sessions.get(JSON.stringify([verified.userKey, verified.clientId]), async () => {
        const user = await findOrCreateOAuthUser(db, config, verified.userKey);
        if (user.disabled) throw new GatewayError("invalid_token", `The user ${user.email} is disabled.`); // and gets no session row
        return findOrCreateOAuthSession(db, user, verified.clientId, verified.issuedAt);
      });
      const principal = checkAgentSession(row); // again: a cached session may have expired since
      touchAgentSession(db, deps.logger, row!);
      const tools = toolsForScopes(config.scopeTools, verified.scopes);
      return {
        ...principal,
        grant: { ...principal.grant, tools },
        stepUpScope: (gatewayName) => (matchesAny(tools, gatewayName) ? undefined : scopeReaching(config.scopeTools, gatewayName)),
      };
    },
    challenge: (endpoint, opts) => bearerChallenge(config, publicUrl, endpoint, opts),
    close: () => sessions.close(),
  };
}
