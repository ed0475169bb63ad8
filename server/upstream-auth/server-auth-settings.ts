// GET/PUT /api/v1/servers/{id}/auth (admins): a server's auth mode, its client registration and who is connected.
// A client secret goes into the secret store sealed and is never answered; changing the mode keeps existing
// connections (switching back finds them) but the call path only uses the ones the new mode asks for.
import type { TPutServerAuth, TServerAuth } from "../../lib/upstream-auth-schemas";
import { ZPutServerAuth } from "../../lib/upstream-auth-schemas";
import { recordAudit } from "../audit/record-audit";
import type { RequestContext } from "../context";
import { publishChange } from "../events/change-bus";
import { readAuthConfig } from "./auth-config";
import { CONNECTION_DTO_SELECT, connectionDto } from "./connection-dto";
import { httpUrlOf, loadAuthServer, type UpstreamAuthDeps } from "./upstream-auth-deps";

export async function getServerAuth(deps: UpstreamAuthDeps, serverId: string): Promise<TServerAuth> {
  const server = await loadAuthServer(deps.db, serverId);
  const [shared, connectedUsers, latest] = await Promise.all([
    deps.db.upstreamConnection.findUnique({ where: { serverId_owner: { serverId, owner: "shared" } }, select: CONNECTION_DTO_SELECT }),
    deps.db.upstreamConnection.count({ where: { serverId, userId: { not: null } } }),
    deps.db.upstreamConnection.findFirst({ where: { serverId }, orderBy: { updatedAt: "desc" }, select: { issuer: true } }),
  ]);
  const c = server.config;
  return {
    mode: server.mode,
    // Configured, else where the shared account or a dynamic registration was made, else where users connected
    // (a per_user server with a client ID metadata document keeps no registration).
    issuer: c.issuer ?? shared?.issuer ?? c.registeredAt ?? latest?.issuer ?? null,
    registration: c.registration ?? null,
    clientId: c.clientId ?? null,
    scopes: c.scopes,
    shared: shared ? connectionDto(shared) : null,
    connectedUsers,
    tokenExchange: server.mode === "token_exchange" ? { audience: c.audience ?? null } : null,
  };
}

export async function putServerAuth(deps: UpstreamAuthDeps, ctx: RequestContext, serverId: string, input: TPutServerAuth): Promise<TServerAuth> {
  const body = ZPutServerAuth.parse(input);
  const server = await loadAuthServer(deps.db, serverId);
  if (body.mode !== "none") httpUrlOf(server);
  await deps.db.$transaction(async (tx) => {
    const current = readAuthConfig((await tx.upstreamServer.findUniqueOrThrow({ where: { id: serverId }, select: { authConfig: true } })).authConfig);
    const next = { ...current };
    if (body.clientId !== undefined) {
      // An admin's client id replaces whatever registration was made; null goes back to discovery's choice.
      await deps.secrets.drop(tx, [current.clientSecretId]);
      Object.assign(next, body.clientId ? { registration: "pre_registered", clientId: body.clientId, clientSecretId: null, registeredAt: null } : { registration: null, clientId: null, clientSecretId: null, registeredAt: null });
    }
    if (body.clientSecret && next.clientId) {
      if (body.clientId === undefined) await deps.secrets.drop(tx, [current.clientSecretId]);
      next.clientSecretId = await deps.secrets.seal(tx, `upstream:client:${serverId}:${Date.now().toString(36)}`, body.clientSecret);
    }
    if (body.scopes) next.scopes = body.scopes;
    if (body.audience !== undefined) next.audience = body.audience;
    await tx.upstreamServer.update({ where: { id: serverId }, data: { authMode: body.mode, authConfig: next } });
    await recordAudit(tx, ctx, { action: "server.auth_updated", targetType: "server", targetId: serverId, details: { slug: server.slug, mode: body.mode, clientId: next.clientId ?? null, clientSecretChanged: Boolean(body.clientSecret), scopes: next.scopes } });
    await publishChange(tx, { kind: "secrets" });
    await publishChange(tx, { kind: "registry", serverId });
    // New client credentials (client_credentials mode) may be what the server's failed connect was waiting for.
    await publishChange(tx, { kind: "upstream_account", serverId });
  });
  await deps.redactionReload();
  return getServerAuth(deps, serverId);
}
