// An admin blocks an OAuth client: the block row first (from then on every process's authorization server
// refuses the client on its next lookup: no authorization, code exchange or refresh), then every agent session
// its consents created is revoked through revokeAgentSession, so its access tokens and grants die at once.
import { recordAudit } from "../../audit/record-audit";
import { actorUserId, type RequestContext } from "../../context";
import type { Db } from "../../db/client";
import { forbidden } from "../../errors";
import { revokeAgentSession } from "../../sessions/agent-sessions";
import { OAUTH_AGENT_PREFIX } from "./list-oauth-clients";

export type BlockOutcome = { clientId: string; blocked: boolean; revokedSessions: number };

function requireAdmin(ctx: RequestContext): void {
  if (ctx.actor.type === "user" && ctx.actor.role !== "ADMIN") throw forbidden("Only administrators block or unblock OAuth clients.");
}

/** Idempotent: blocking a blocked client records nothing new but still revokes any session left over. */
export async function blockOAuthClient(db: Db, ctx: RequestContext, clientId: string, reason?: string): Promise<BlockOutcome> {
  requireAdmin(ctx);
  await db.$transaction(async (tx) => {
    // ON CONFLICT DO NOTHING: concurrent blocks of one client insert (and audit) once.
    const { count } = await tx.oAuthBlockedClient.createMany({ data: [{ clientId, blockedBy: actorUserId(ctx) ?? null, reason: reason ?? null }], skipDuplicates: true });
    if (count) await recordAudit(tx, ctx, { action: "oauth.client_blocked", category: "security", targetType: "oauth_client", targetId: clientId, details: { reason: reason ?? null } });
  });
  const live = await db.agentSession.findMany({ where: { agentId: OAUTH_AGENT_PREFIX + clientId, revokedAt: null }, select: { id: true } });
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
