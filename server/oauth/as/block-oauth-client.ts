// An admin blocks an OAuth client: the block row first (from then on every process's authorization server
// refuses the client on its next lookup: no authorization, code exchange or refresh), then every agent session
// its consents created is revoked through revokeAgentSession, so its access tokens and grants die at once.
import { recordAudit } from "../../audit/record-audit";
import { actorUserId, type RequestContext } from "../../context";
import type { Db, DbTx } from "../../db/client";
import { forbidden, GatewayError } from "../../errors";
import { revokeAgentSession } from "../../sessions/agent-sessions";
import { oauthAgentId } from "../oauth-session";

export type BlockOutcome = { clientId: string; blocked: boolean; revokedSessions: number };

/**
 * A block and a consent of the same client are serialized by this lock (the block exclusive, consents shared):
 * either the consent commits its session first and the block's sweep revokes it, or the consent sees the block.
 */
const clientLock = (tx: DbTx, clientId: string, mode: "exclusive" | "shared") =>
  mode === "exclusive"
    ? tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtextextended(${`oauth-client:${clientId}`}, 0))`
    : tx.$executeRaw`SELECT pg_advisory_xact_lock_shared(hashtextextended(${`oauth-client:${clientId}`}, 0))`;

/** In a consent's transaction: refuses a blocked client, so no session is made for it after its block swept. */
export async function refuseBlockedClient(tx: DbTx, clientId: string): Promise<void> {
  await clientLock(tx, clientId, "shared");
  if (await tx.oAuthBlockedClient.findUnique({ where: { clientId }, select: { clientId: true } })) {
    throw new GatewayError("oauth_client_blocked", "An administrator blocked this client; it cannot be authorized.");
  }
}

function requireAdmin(ctx: RequestContext): void {
  if (ctx.actor.type === "user" && ctx.actor.role !== "ADMIN") throw forbidden("Only administrators block or unblock OAuth clients.");
}

/** Idempotent: blocking a blocked client records nothing new but still revokes any session left over. */
export async function blockOAuthClient(db: Db, ctx: RequestContext, clientId: string, reason?: string): Promise<BlockOutcome> {
  requireAdmin(ctx);
  await db.$transaction(async (tx) => {
    await clientLock(tx, clientId, "exclusive");
    // ON CONFLICT DO NOTHING: concurrent blocks of one client insert (and audit) once.
    const { count } = await tx.oAuthBlockedClient.createMany({ data: [{ clientId, blockedBy: actorUserId(ctx) ?? null, reason: reason ?? null }], skipDuplicates: true });
    if (count) await recordAudit(tx, ctx, { action: "oauth.client_blocked", category: "security", targetType: "oauth_client", targetId: clientId, details: { reason: reason ?? null } });
  });
  const live = await db.agentSession.findMany({ where: { agentId: oauthAgentId(clientId), revokedAt: null }, select: { id: true } });
  for (const s of live) await revokeAgentSession(db, ctx, s.id);
  return { clientId, blocked: true, revokedSessions: live.length };
}

export async function unblockOAuthClient(db: Db, ctx: RequestContext, clientId: string): Promise<BlockOutcome> {
  requireAdmin(ctx);
  await db.$transaction(async (tx) => {
    const { count } = await tx.oAuthBlockedClient.deleteMany({ where: { clientId } });
    if (count) await recordAudit(tx, ctx, { action: "oauth.client_unblocked", category: "security", targetType: "oauth_client", targetId: clientId, details: {} });
  });
  return { clientId, blocked: false, revokedSessions: 0 };
}
