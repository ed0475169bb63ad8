// Disconnecting (the user, an admin, or the user being disabled): the tokens are revoked at the provider when it
// advertises revocation (RFC 7009; the refresh token first, which ends the grant), then deleted with the row.
// A provider that cannot be reached does not keep the tokens here: they are deleted all the same.
import { recordAudit } from "../audit/record-audit";
import type { RequestContext } from "../context";
import { forbidden, notFound } from "../errors";
import { publishChange } from "../events/change-bus";
import { discoverAuthorizationServer } from "./discover-authorization-server";
import { revokeToken } from "./token-endpoint";
import { httpUrlOf, loadAuthServer, type UpstreamAuthDeps } from "./upstream-auth-deps";

type Row = { id: string; serverId: string; userId: string | null; issuer: string; clientId: string; registration: string; accessSecretId: string | null; refreshSecretId: string | null };
const FIELDS = { id: true, serverId: true, userId: true, issuer: true, clientId: true, registration: true, accessSecretId: true, refreshSecretId: true } as const;

async function revokeAtProvider(deps: UpstreamAuthDeps, row: Row): Promise<boolean> {
  try {
    const server = await loadAuthServer(deps.db, row.serverId);
    const as = await discoverAuthorizationServer(httpUrlOf(server), deps.fetchFn);
    if (as.issuer !== row.issuer || !as.metadata.revocation_endpoint) return false;
    const secret = row.registration !== "metadata_document" && server.config.clientId === row.clientId && server.config.clientSecretId ? await deps.secrets.unseal(server.config.clientSecretId) : null;
    const client = secret ? { client_id: row.clientId, client_secret: secret } : { client_id: row.clientId };
    let revoked = false;
    for (const [id, hint] of [[row.refreshSecretId, "refresh_token"], [row.accessSecretId, "access_token"]] as const) {
      const token = id ? await deps.secrets.unseal(id) : null;
      if (token) revoked = (await revokeToken(as.metadata, client, token, hint, deps.fetchFn)) || revoked;
    }
    return revoked;
  } catch (err) {
    deps.logger.warn({ err, connectionId: row.id }, "revoking an upstream connection at its provider failed; its tokens are deleted here all the same");
    return false;
  }
}

async function remove(deps: UpstreamAuthDeps, ctx: RequestContext, row: Row, reason: string): Promise<void> {
  const revoked = await revokeAtProvider(deps, row);
  await deps.db.$transaction(async (tx) => {
    const { count } = await tx.upstreamConnection.deleteMany({ where: { id: row.id } });
    await deps.secrets.drop(tx, [row.accessSecretId, row.refreshSecretId]);
    if (count) await recordAudit(tx, ctx, { action: "upstream.disconnected", category: "security", targetType: "upstream_connection", targetId: row.id, details: { server: row.serverId, userId: row.userId, revoked, reason } });
    await publishChange(tx, { kind: "secrets" });
  });
}

/** DELETE /api/v1/connections/{id}: the caller's own connection, or any for an admin. */
export async function disconnectConnection(deps: UpstreamAuthDeps, ctx: RequestContext, connectionId: string): Promise<void> {
  const row = await deps.db.upstreamConnection.findUnique({ where: { id: connectionId }, select: FIELDS });
  if (!row) throw notFound(`The connection ${connectionId}`);
  const isAdmin = ctx.actor.type === "system" || ctx.actor.role === "ADMIN";
  if (!isAdmin && (ctx.actor.type !== "user" || row.userId !== ctx.actor.userId)) {
    // Someone else's connection is not shown as existing.
    if (row.userId !== null) throw notFound(`The connection ${connectionId}`);
    throw forbidden("Only an admin disconnects a shared connection.");
  }
  await remove(deps, ctx, row, "disconnected");
}

/** A user disabled (or deleted): every connection of theirs is revoked and deleted. */
export async function disconnectUser(deps: UpstreamAuthDeps, ctx: RequestContext, userId: string): Promise<number> {
  const rows = await deps.db.upstreamConnection.findMany({ where: { userId }, select: FIELDS });
  for (const row of rows) await remove(deps, ctx, row, "user_disabled");
  return rows.length;
}
