import type { TApiToken } from "../../lib/schemas";
import { recordAudit } from "../audit/record-audit";
import type { RequestContext } from "../context";
import type { Db } from "../db/client";
import { forbidden, notFound } from "../errors";
import { publishChange } from "../events/change-bus";
import { toApiTokenDto } from "./api-token-dto";

/**
 * Revokes a token by id or by its printed prefix. Users revoke their own tokens; admins (and the CLI)
 * any token. Revoking twice is harmless. Every gateway process refuses the token from its next call on.
 */
export async function revokeApiToken(db: Db, ctx: RequestContext, idOrPrefix: string): Promise<TApiToken> {
  const row = await db.apiToken.findFirst({ where: { OR: [{ id: idOrPrefix }, { prefix: idOrPrefix }] } });
  if (!row) throw notFound(`API token ${idOrPrefix}`);
  const isOwner = ctx.actor.type === "user" && ctx.actor.userId === row.userId;
  const isAdmin = ctx.actor.type === "system" || (ctx.actor.type === "user" && ctx.actor.role === "ADMIN");
  if (!isOwner && !isAdmin) throw forbidden("You can revoke only your own tokens.");
  if (row.revokedAt) return toApiTokenDto(row);
  return db.$transaction(async (tx) => {
    const updated = await tx.apiToken.update({ where: { id: row.id }, data: { revokedAt: new Date() } });
    await recordAudit(tx, ctx, {
      action: "api_token.revoked",
      targetType: "api_token",
      targetId: row.id,
      details: { userId: row.userId, prefix: row.prefix },
    });
    // Delivered at commit to every gateway process, which drops the token from its cache.
    await publishChange(tx, { kind: "api_token", tokenId: row.id });
    return toApiTokenDto(updated);
  });
}

export async function listApiTokens(db: Db, userId: string): Promise<TApiToken[]> {
  const rows = await db.apiToken.findMany({ where: { userId }, orderBy: { createdAt: "desc" } });
  return rows.map(toApiTokenDto);
}
