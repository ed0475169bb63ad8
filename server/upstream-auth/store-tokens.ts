// Writes a connection's tokens: sealed into the secrets table (rows `upstream:<connection>:…`), the connection row
// pointing at them, the previous rows deleted in the same transaction. The `secrets` change makes every process
// reload its redactor, which then knows the new values (this process reloads before the token is handed out).
import type { OAuthTokens } from "@modelcontextprotocol/sdk/shared/auth.js";
import { decodeJwt } from "jose";
import type { DbTx } from "../db/client";
import { publishChange } from "../events/change-bus";
import type { SecretStore } from "../secrets/secret-store";

/** Who the token is for, for display: email, preferred_username or sub, from the ID token or a JWT access token. */
export function accountOf(tokens: OAuthTokens): string | null {
  for (const jwt of [tokens.id_token, tokens.access_token]) {
    if (!jwt) continue;
    try {
      const claims = decodeJwt(jwt);
      const account = [claims.email, claims.preferred_username, claims.sub].find((v): v is string => typeof v === "string" && v.length > 0);
      if (account) return account.slice(0, 320);
    } catch {
      // An opaque token: nothing to read.
    }
  }
  return null;
}

export const expiryOf = (tokens: OAuthTokens, now = Date.now()): Date | null => (typeof tokens.expires_in === "number" ? new Date(now + tokens.expires_in * 1000) : null);

type Owner = { serverId: string; userId: string | null };
type Identity = { issuer: string; clientId: string; registration: string; scopes: string[] };

const sealName = (serverId: string, owner: string, kind: string) => `upstream:${serverId}:${owner}:${kind}:${Date.now().toString(36)}${Math.random().toString(36).slice(2, 8)}`;

/** A new connection or a reconnect: replaces the tokens, status connected, generation bumped. */
export async function storeConnection(tx: DbTx, secrets: SecretStore, who: Owner, identity: Identity, tokens: OAuthTokens): Promise<{ id: string }> {
  const owner = who.userId ?? "shared";
  const previous = await tx.upstreamConnection.findUnique({ where: { serverId_owner: { serverId: who.serverId, owner } }, select: { accessSecretId: true, refreshSecretId: true } });
  const accessSecretId = await secrets.seal(tx, sealName(who.serverId, owner, "access"), tokens.access_token);
  const refreshSecretId = tokens.refresh_token ? await secrets.seal(tx, sealName(who.serverId, owner, "refresh"), tokens.refresh_token) : null;
  const scopes = tokens.scope ? tokens.scope.split(" ").filter(Boolean) : identity.scopes;
  const fields = { ...identity, scopes, account: accountOf(tokens), expiresAt: expiryOf(tokens), status: "connected", lastError: null, accessSecretId, refreshSecretId };
  const row = await tx.upstreamConnection.upsert({
    where: { serverId_owner: { serverId: who.serverId, owner } },
    create: { serverId: who.serverId, userId: who.userId, owner, ...fields },
    update: { ...fields, generation: { increment: 1 }, createdAt: new Date() },
    select: { id: true },
  });
  if (previous) await secrets.drop(tx, [previous.accessSecretId, previous.refreshSecretId]);
  await publishChange(tx, { kind: "secrets" });
  return row;
}

/** A refresh: new access token (and the rotated refresh token when the provider sent one). */
export async function storeRefreshed(tx: DbTx, secrets: SecretStore, connection: { id: string; serverId: string; owner: string; accessSecretId: string | null; refreshSecretId: string | null }, tokens: OAuthTokens): Promise<number> {
  const accessSecretId = await secrets.seal(tx, sealName(connection.serverId, connection.owner, "access"), tokens.access_token);
  const rotated = tokens.refresh_token ? await secrets.seal(tx, sealName(connection.serverId, connection.owner, "refresh"), tokens.refresh_token) : null;
  const row = await tx.upstreamConnection.update({
    where: { id: connection.id },
    data: { accessSecretId, ...(rotated && { refreshSecretId: rotated }), expiresAt: expiryOf(tokens), status: "connected", lastError: null, generation: { increment: 1 }, ...(tokens.scope && { scopes: tokens.scope.split(" ").filter(Boolean) }) },
    select: { generation: true },
  });
  await secrets.drop(tx, [connection.accessSecretId, ...(rotated ? [connection.refreshSecretId] : [])]);
  await publishChange(tx, { kind: "secrets" });
  return row.generation;
}
