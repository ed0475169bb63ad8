// Agent session tokens on the MCP hot path: resolved from a per-process cache (no token row read per call),
// dropped on every process through the change bus when the session is revoked or its user changes. Every
// refusal says why: malformed, a personal API token, unknown (or tampered), revoked, expired, user disabled.
import { hashToken, tokenKind } from "../auth/token-format";
import { needsTouch } from "../auth/authenticate-api-token";
import type { AgentSession, Db, User } from "../db/client";
import { GatewayError } from "../errors";
import type { ChangeBus } from "../events/change-bus";
import { createInvalidatedCache } from "../events/invalidated-cache";
import type { Logger } from "../logger";
import { checkAgentSession, type AgentPrincipal } from "../policy/check-agent-session";

export const SESSION_CACHE_TTL_MS = 10_000;

// The check itself is in policy/ (the task engine and the policy simulator use it too); re-exported for the endpoints.
export { checkAgentSession, type AgentPrincipal } from "../policy/check-agent-session";

type Row = AgentSession & { user: User };

const invalid = (message: string) => new GatewayError("invalid_token", message);

/** Throws `invalid_token` unless `token` has the shape of an agent session token. */
export function assertAgentTokenShape(token: string): void {
  const kind = tokenKind(token);
  if (kind === "agent") return;
  if (kind === "api") {
    throw invalid("Personal API tokens (pct_…) are for the REST API. The MCP endpoints take an agent session token (pcs_…): create one on the console's Agents page or with POST /api/v1/sessions.");
  }
  throw invalid("The bearer token is malformed; the MCP endpoints take an agent session token (pcs_…).");
}

/** lastUsedAt is bookkeeping: written at most once a minute per (cached) session, never awaited by a call. */
export function touchAgentSession(db: Db, logger: Logger, row: AgentSession): void {
  if (!needsTouch(row.lastUsedAt)) return;
  const now = new Date();
  row.lastUsedAt = now;
  db.agentSession
    .update({ where: { id: row.id }, data: { lastUsedAt: now } })
    .catch((err: unknown) => logger.warn({ err, sessionId: row.id }, "could not record when an agent session was used"));
}

export type SessionAuth = { authenticate(token: string): Promise<AgentPrincipal>; close(): void };

export function createSessionAuth(deps: { db: Db; bus: ChangeBus; logger: Logger; ttlMs?: number }): SessionAuth {
  const { db, logger } = deps;
  const cache = createInvalidatedCache<Row>({
    bus: deps.bus,
    ttlMs: deps.ttlMs ?? SESSION_CACHE_TTL_MS,
    invalidates: (e) =>
      e.kind === "agent_session" ? (_k, row) => row.id === e.sessionId : e.kind === "user" ? (_k, row) => row.userId === e.userId : undefined,
  });

  return {
    async authenticate(token) {
      assertAgentTokenShape(token);
      // Only usable sessions are cached: an unknown, revoked or expired token is looked up every time.
      const row = await cache.get(hashToken(token), async () => {
        const found = await db.agentSession.findUnique({ where: { tokenHash: hashToken(token) }, include: { user: true } });
        checkAgentSession(found);
        return found;
      });
      const principal = checkAgentSession(row); // again: a cached session may have expired since
      touchAgentSession(db, logger, row!);
      return principal;
    },
    close: () => cache.close(),
  };
}
