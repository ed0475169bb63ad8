// The agent session an OAuth client works in: one per (user, client), created on first use and marked as
// OAuth-born (agentId `oauth:<client>`, prefix `oauth`), so audit rows, MCP sessions and tasks reference a real
// row and the Agents page lists and revokes it like any other. Its stored whitelist is everything: what a call
// may use is the user's grants (enforced live) narrowed by the token's scopes (set per request).
import { randomBytes } from "node:crypto";
import { recordAudit } from "../audit/record-audit";
import { hashToken } from "../auth/token-format";
import type { RequestContext } from "../context";
import type { AgentSession, Db, User } from "../db/client";
import { GatewayError } from "../errors";
import { getSessionSettings } from "../sessions/agent-sessions";
import { canaryBucket } from "../sessions/canary-bucket";

export const oauthAgentId = (clientId: string) => `oauth:${clientId}`.slice(0, 200);

export type OAuthSessionRow = AgentSession & { user: User };

/**
 * The usable session of (user, client), creating it when there is none. A token issued before the client's
 * session was revoked is refused: revoking on the Agents page ends the tokens the client holds.
 */
export async function findOrCreateOAuthSession(db: Db, user: User, clientId: string, issuedAt: number, now = new Date()): Promise<OAuthSessionRow> {
  const agentId = oauthAgentId(clientId);
  const usable = { userId: user.id, agentId, revokedAt: null, expiresAt: { gt: now } };
  const found = await db.agentSession.findFirst({ where: usable, include: { user: true }, orderBy: { createdAt: "desc" } });
  if (found) return found;
  return db.$transaction(async (tx) => {
    // Claim (user, client) before looking again: concurrent first calls create one session, not several.
    await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtextextended(${`oauth-session:${user.id}:${agentId}`}, 0))`;
    const again = await tx.agentSession.findFirst({ where: usable, include: { user: true }, orderBy: { createdAt: "desc" } });
    if (again) return again;
    // `iat` has one-second precision: a token of the revocation's own second is refused too (the safe side).
    const revoked = await tx.agentSession.findFirst({ where: { userId: user.id, agentId, revokedAt: { gte: new Date(issuedAt * 1000) } }, select: { id: true } });
    if (revoked) throw new GatewayError("invalid_token", "The agent session of this client was revoked after this access token was issued. Sign in again for a new token.");
    // It lives as long as the administrator's maximum for agent sessions; the next token after that opens a new one.
    const { maxTtlSeconds } = await getSessionSettings(tx);
    // Not a bearer secret: OAuth sessions are never reached by token hash; the unique column needs a value.
    const created = await tx.agentSession.create({
      data: { userId: user.id, agentId, tokenHash: hashToken(`oauth_${randomBytes(24).toString("base64url")}`), prefix: "oauth", tools: ["*"], paths: ["*"], expiresAt: new Date(now.getTime() + maxTtlSeconds * 1000) },
    });
    const row = await tx.agentSession.update({ where: { id: created.id }, data: { canaryBucket: canaryBucket(created.id) }, include: { user: true } });
    const ctx: RequestContext = { actor: { type: "user", userId: user.id, email: user.email, role: user.role }, requestId: crypto.randomUUID(), via: "agent_token" };
    await recordAudit(tx, ctx, { action: "agent_session.created", category: "security", targetType: "agent_session", targetId: row.id, details: { userId: user.id, agentId, prefix: "oauth", via: "oauth", clientId } });
    return row;
  });
}
