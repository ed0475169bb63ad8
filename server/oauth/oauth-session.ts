// The agent session an OAuth client works in: one per (user, client), created on first use and marked as
// OAuth-born (agentId `oauth:<client>`, prefix `oauth`), so audit rows, MCP sessions and tasks reference a real
// row and the Agents page lists and revokes it like any other. Its stored whitelist is everything: what a call
// may use is the user's grants (enforced live) narrowed by the token's scopes (set per request).
import { createHash, randomBytes } from "node:crypto";
import { AGENT_ID_MAX } from "../../lib/policy-schemas";
import { recordAudit } from "../audit/record-audit";
import { hashToken } from "../auth/token-format";
import type { RequestContext } from "../context";
import type { AgentSession, Db, DbTx, User } from "../db/client";
import { GatewayError } from "../errors";
import { getSessionSettings } from "../sessions/agent-sessions";
import { canaryBucket } from "../sessions/canary-bucket";

/**
 * The agent id of a client's sessions, within the agent id limit. A longer client id (a metadata document URL may
 * have 2048 characters) keeps its start, readable on the Agents page, and a hash of the whole, so two long ids
 * that share a start stay apart and every lookup (consent, token check, block) finds the same name.
 */
export function oauthAgentId(clientId: string): string {
  const whole = `oauth:${clientId}`;
  if (whole.length <= AGENT_ID_MAX) return whole;
  const hash = createHash("sha256").update(clientId).digest("base64url").slice(0, 16);
  return `${whole.slice(0, AGENT_ID_MAX - hash.length - 1)}~${hash}`;
}

export type OAuthSessionRow = AgentSession & { user: User };

/** A usable session of (user, client), and when a session of theirs was last revoked (tokens issued up to then are refused). */
export type OAuthSession = { row: OAuthSessionRow; revokedUpTo: Date | null };

const revokedBefore = () => new GatewayError("invalid_token", "The agent session of this client was revoked after this access token was issued. Sign in again for a new token.");

/**
 * Refuses a token issued at or before the last revocation of its client's session: revoking on the Agents page ends
 * the tokens the client holds, including after a newer token opened a new session. `iat` has one-second
 * precision, so a token of the revocation's own second is refused too (the safe side).
 */
export function assertIssuedAfterRevocation(session: OAuthSession, issuedAt: number): void {
  if (session.revokedUpTo && issuedAt * 1000 <= session.revokedUpTo.getTime()) throw revokedBefore();
}

async function lastRevocation(db: DbTx, userId: string, agentId: string): Promise<Date | null> {
  const { _max } = await db.agentSession.aggregate({ where: { userId, agentId }, _max: { revokedAt: true } });
  return _max.revokedAt;
}

const usable = (userId: string, agentId: string, now: Date) => ({ userId, agentId, revokedAt: null, expiresAt: { gt: now } });

/** The usable session of (user, client), or null when there is none (yet, or any more). */
export async function findOAuthSession(db: DbTx, userId: string, clientId: string, now = new Date()): Promise<OAuthSession | null> {
  const agentId = oauthAgentId(clientId);
  const row = await db.agentSession.findFirst({ where: usable(userId, agentId, now), include: { user: true }, orderBy: { createdAt: "desc" } });
  return row && { row, revokedUpTo: await lastRevocation(db, userId, agentId) };
}

/** The usable session of (user, client), created when there is none; refused for a token older than the last revocation. */
export async function openOAuthSession(db: Db, user: User, clientId: string, issuedAt: number, now = new Date()): Promise<OAuthSession> {
  const agentId = oauthAgentId(clientId);
  return db.$transaction(async (tx) => {
    // Claim (user, client) before looking: concurrent first calls create one session, not several.
    await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtextextended(${`oauth-session:${user.id}:${agentId}`}, 0))`;
    const found = await findOAuthSession(tx, user.id, clientId, now);
    if (found) return found;
    const revokedUpTo = await lastRevocation(tx, user.id, agentId);
    if (revokedUpTo && issuedAt * 1000 <= revokedUpTo.getTime()) throw revokedBefore();
    // It lives as long as the administrator's maximum for agent sessions; the next token after that opens a new one.
    const { maxTtlSeconds } = await getSessionSettings(tx);
    // Not a bearer secret: OAuth sessions are never reached by token hash; the unique column needs a value.
    const created = await tx.agentSession.create({
      data: { userId: user.id, agentId, tokenHash: hashToken(`oauth_${randomBytes(24).toString("base64url")}`), prefix: "oauth", tools: ["*"], paths: ["*"], expiresAt: new Date(now.getTime() + maxTtlSeconds * 1000) },
    });
    const row = await tx.agentSession.update({ where: { id: created.id }, data: { canaryBucket: canaryBucket(created.id) }, include: { user: true } });
    const ctx: RequestContext = { actor: { type: "user", userId: user.id, email: user.email, role: user.role }, requestId: crypto.randomUUID(), via: "agent_token" };
    await recordAudit(tx, ctx, { action: "agent_session.created", category: "security", targetType: "agent_session", targetId: row.id, details: { userId: user.id, agentId, prefix: "oauth", via: "oauth", clientId } });
    return { row, revokedUpTo };
  });
}
