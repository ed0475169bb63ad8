// The UpstreamCredentials the call path asks (upstream-credentials.ts): per server mode, the bearer token of one
// call, kept fresh; never another user's token, never a token of a connection that needs reconnecting.
import { recordAudit } from "../audit/record-audit";
import { systemContext } from "../context";
import { GatewayError } from "../errors";
import { UpstreamAuthRequiredError } from "./upstream-auth-required-error";
import type { CallIdentity, CredentialRef, UpstreamCredential, UpstreamCredentials } from "./upstream-credentials";
import { connectPageUrl } from "./upstream-client-document";
import { NeedsReconnectError, type TokenRefresher } from "./refresh-connection";
import type { ServiceTokens } from "./service-tokens";
import { loadAuthServer, type AuthServerRow, type UpstreamAuthDeps } from "./upstream-auth-deps";

const LAST_USED_EVERY_MS = 60_000;

export function createUpstreamCredentials(deps: UpstreamAuthDeps, refresher: TokenRefresher, service: ServiceTokens): UpstreamCredentials {
  const required = (server: AuthServerRow, reason: "not_connected" | "needs_reconnect") => new UpstreamAuthRequiredError(server.slug, connectPageUrl(deps.publicUrl, server.slug), reason);

  const touch = (connectionId: string) =>
    void deps.db.upstreamConnection
      .updateMany({ where: { id: connectionId, OR: [{ lastUsedAt: null }, { lastUsedAt: { lt: new Date(Date.now() - LAST_USED_EVERY_MS) } }] }, data: { lastUsedAt: new Date() } })
      .catch((err: unknown) => deps.logger.warn({ err }, "recording a connection's last use failed"));

  async function fromConnection(server: AuthServerRow, owner: string, ref: Omit<CredentialRef, "connectionId">): Promise<UpstreamCredential> {
    const row = await deps.db.upstreamConnection.findUnique({ where: { serverId_owner: { serverId: server.id, owner } }, select: { id: true, status: true } });
    if (!row) throw required(server, "not_connected");
    try {
      const { accessToken } = await refresher.accessToken(row.id);
      touch(row.id);
      return { kind: "bearer", accessToken, cacheKey: `conn:${row.id}`, ref: { ...ref, connectionId: row.id } };
    } catch (err) {
      if (err instanceof NeedsReconnectError) throw required(server, "needs_reconnect");
      throw err;
    }
  }

  async function forServer(server: AuthServerRow, identity: Pick<CallIdentity, "userId" | "subjectToken" | "agentSessionId">): Promise<UpstreamCredential> {
    switch (server.mode) {
      case "none":
        return { kind: "none" };
      case "shared":
        return fromConnection(server, "shared", { mode: "shared", userId: null });
      case "per_user":
        if (!identity.userId) throw required(server, "not_connected");
        return fromConnection(server, identity.userId, { mode: "per_user", userId: identity.userId });
      case "client_credentials":
        return { kind: "bearer", accessToken: await service.clientCredentials(server.id), cacheKey: `cc:${server.id}`, ref: { mode: "client_credentials", connectionId: null, userId: null } };
      case "token_exchange": {
        if (!identity.subjectToken) throw required(server, "not_connected");
        const accessToken = await service.exchange(server.id, identity.subjectToken);
        return { kind: "bearer", accessToken, cacheKey: `tx:${server.id}:${identity.userId ?? identity.agentSessionId}`, ref: { mode: "token_exchange", connectionId: null, userId: identity.userId } };
      }
    }
  }

  return {
    async forCall(identity) {
      return forServer(await loadAuthServer(deps.db, identity.serverId), identity);
    },

    async forDiscovery(serverId) {
      const server = await loadAuthServer(deps.db, serverId);
      if (server.mode !== "per_user" && server.mode !== "token_exchange") return forServer(server, { userId: null, agentSessionId: "discovery" });
      // Definitions are listed with an admin's own connection (the freshest used one); none yet: auth_required.
      const admin = await deps.db.upstreamConnection.findFirst({
        where: { serverId, status: "connected", user: { role: "ADMIN", disabled: false } },
        orderBy: [{ lastUsedAt: { sort: "desc", nulls: "last" } }, { createdAt: "desc" }],
        select: { owner: true, userId: true },
      });
      if (!admin?.userId) throw required(server, "not_connected");
      return fromConnection(server, admin.owner, { mode: "per_user", userId: admin.userId });
    },

    async insufficientScope(identity, credential, scopes) {
      const server = await loadAuthServer(deps.db, identity.serverId);
      const connectionId = credential.ref.connectionId;
      if (!connectionId) throw new GatewayError("upstream_auth_failed", `The server ${server.slug} asks for scopes ${scopes.join(" ")}, which its ${server.mode} credential does not have: an admin sets the server's scopes.`);
      await deps.db.$transaction(async (tx) => {
        const row = await tx.upstreamConnection.findUnique({ where: { id: connectionId }, select: { scopes: true } });
        if (!row) return;
        const wanted = [...new Set([...row.scopes, ...scopes])];
        await tx.upstreamConnection.update({ where: { id: connectionId }, data: { status: "needs_reconnect", scopes: wanted, lastError: `the server asks for more scopes (${scopes.join(" ")}): reconnect to grant them` } });
        await recordAudit(tx, systemContext("upstream-auth"), { action: "upstream.scope_required", category: "security", targetType: "upstream_connection", targetId: connectionId, details: { server: server.slug, userId: credential.ref.userId, scopes: wanted } });
      });
      throw required(server, "needs_reconnect");
    },

    async rejected(identity, credential) {
      const server = await loadAuthServer(deps.db, identity.serverId);
      const connectionId = credential.ref.connectionId;
      if (!connectionId) {
        // A service token the upstream refused: mint a new one (once; a second refusal is the caller's error).
        service.forget(credential.accessToken);
        return forServer(server, identity);
      }
      try {
        const { accessToken } = await refresher.afterRejection(connectionId, credential.accessToken);
        return { ...credential, accessToken };
      } catch (err) {
        if (err instanceof NeedsReconnectError) throw required(server, "needs_reconnect");
        throw err;
      }
    },
  };
}
