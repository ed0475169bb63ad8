// A connection's access token, refreshed before it expires with exactly one refresh at the provider however many
// callers on however many gateway processes need it: callers of this process share one attempt per (connection,
// generation), and processes take turns under a transaction-scoped PostgreSQL advisory lock per connection,
// re-reading the row once they hold it: if its generation moved, another process refreshed and its token is
// used. A refresh the provider refuses marks the connection needs_reconnect (with lastError, audited
// upstream.refresh_failed) and the stale token is never handed out.
import { createHash } from "node:crypto";
import { refreshAuthorization } from "@modelcontextprotocol/sdk/client/auth.js";
import { OAuthError } from "@modelcontextprotocol/sdk/server/auth/errors.js";
import { recordAudit } from "../audit/record-audit";
import { systemContext } from "../context";
import type { DbTx } from "../db/client";
import { GatewayError } from "../errors";
import { discoverAuthorizationServer } from "./discover-authorization-server";
import { storeRefreshed } from "./store-tokens";
import { httpUrlOf, loadAuthServer, type UpstreamAuthDeps } from "./upstream-auth-deps";

const LOCK_CLASS = 0x70637572; // "pcur"
const lockKey = (id: string) => createHash("sha256").update(id).digest().readInt32BE(0);
const DEFAULT_SKEW_MS = 60_000;
/** Provider answers that mean the grant is gone: the user must connect again. Anything else is transient. */
const REFUSALS = new Set(["invalid_grant", "invalid_client", "unauthorized_client", "unsupported_grant_type"]);

/** The connection cannot be used until its user connects again. */
export class NeedsReconnectError extends Error {
  override name = "NeedsReconnectError";
  constructor(readonly connectionId: string) {
    super(`The connection ${connectionId} needs to be reconnected.`);
  }
}

export type FreshToken = { accessToken: string; generation: number };

const CONNECTION_FIELDS = { id: true, serverId: true, owner: true, userId: true, issuer: true, clientId: true, registration: true, status: true, accessSecretId: true, refreshSecretId: true, expiresAt: true, generation: true } as const;
type ConnectionRow = NonNullable<Awaited<ReturnType<typeof readConnection>>>;
const readConnection = (db: DbTx, id: string) => db.upstreamConnection.findUnique({ where: { id }, select: CONNECTION_FIELDS });

export function createTokenRefresher(deps: UpstreamAuthDeps) {
  const skew = deps.refreshSkewMs ?? DEFAULT_SKEW_MS;
  const inFlight = new Map<string, Promise<FreshToken>>();
  const fresh = (row: ConnectionRow) => !row.expiresAt || row.expiresAt.getTime() - skew > Date.now();

  const current = async (row: ConnectionRow): Promise<FreshToken> => {
    const accessToken = row.accessSecretId ? await deps.secrets.unseal(row.accessSecretId) : null;
    if (!accessToken) throw new NeedsReconnectError(row.id);
    return { accessToken, generation: row.generation };
  };

  async function refresh(tx: DbTx, row: ConnectionRow, rejected: boolean): Promise<{ ok: true; token: FreshToken } | { ok: false; error: string }> {
    const refreshToken = row.refreshSecretId ? await deps.secrets.unseal(row.refreshSecretId) : null;
    if (!refreshToken) return { ok: false, error: "no refresh token: the provider issued none" };
    const server = await loadAuthServer(deps.db, row.serverId);
    // After a 401 the server may have moved to another authorization server: its metadata is read again.
    const as = await discoverAuthorizationServer(httpUrlOf(server), deps.fetchFn, rejected);
    if (as.issuer !== row.issuer) return { ok: false, error: `the server's authorization server is now ${as.issuer}, not ${row.issuer}` };
    const secret = row.registration !== "metadata_document" && server.config.clientId === row.clientId && server.config.clientSecretId ? await deps.secrets.unseal(server.config.clientSecretId) : null;
    try {
      const tokens = await refreshAuthorization(row.issuer, { metadata: as.metadata, clientInformation: secret ? { client_id: row.clientId, client_secret: secret } : { client_id: row.clientId }, refreshToken, resource: as.resource, ...(deps.fetchFn && { fetchFn: deps.fetchFn }) });
      return { ok: true, token: { accessToken: tokens.access_token, generation: await storeRefreshed(tx, deps.secrets, row, tokens) } };
    } catch (err) {
      if (err instanceof OAuthError && REFUSALS.has(err.errorCode)) return { ok: false, error: `the provider refused the refresh (${err.errorCode})` };
      throw new GatewayError("upstream_auth_failed", `Refreshing the token at ${row.issuer} failed: ${(err as Error).message}`, undefined, { cause: err });
    }
  }

  const underLock = (id: string, seenGeneration: number, force: boolean): Promise<FreshToken> =>
    deps.db
      .$transaction(
        async (tx) => {
          await tx.$executeRaw`SELECT pg_advisory_xact_lock(${LOCK_CLASS}::int, ${lockKey(id)}::int)`;
          const row = await readConnection(tx, id);
          if (!row || row.status !== "connected") return { refused: true as const };
          // Another caller (this process or another) refreshed while this one waited: its token is the answer.
          if (row.generation !== seenGeneration || (!force && fresh(row))) return { token: await current(row) };
          const outcome = await refresh(tx, row, force);
          const ctx = systemContext("upstream-auth");
          const details = { server: row.serverId, userId: row.userId, issuer: row.issuer };
          if (!outcome.ok) {
            await tx.upstreamConnection.update({ where: { id }, data: { status: "needs_reconnect", lastError: outcome.error } });
            await recordAudit(tx, ctx, { action: "upstream.refresh_failed", category: "security", status: "error", errorCode: "needs_reconnect", targetType: "upstream_connection", targetId: id, reason: outcome.error, details });
            return { refused: true as const };
          }
          await recordAudit(tx, ctx, { action: "upstream.token_refreshed", category: "security", targetType: "upstream_connection", targetId: id, details });
          return { token: outcome.token };
        },
        { maxWait: 30_000, timeout: 60_000 },
      )
      .then(async (r) => {
        if ("refused" in r) throw new NeedsReconnectError(id);
        await deps.redactionReload();
        return r.token;
      });

  /** The connection's usable access token; `rejected`: the upstream refused this generation's token (401). */
  async function accessToken(connectionId: string, rejected?: { generation: number }): Promise<FreshToken> {
    const row = await readConnection(deps.db, connectionId);
    if (!row || row.status !== "connected") throw new NeedsReconnectError(connectionId);
    if (!rejected && fresh(row)) return current(row);
    if (rejected && rejected.generation !== row.generation) return current(row);
    const key = `${connectionId}:${String(row.generation)}:${rejected ? "force" : "expiry"}`;
    let flight = inFlight.get(key);
    if (!flight) {
      flight = underLock(connectionId, row.generation, Boolean(rejected)).finally(() => inFlight.delete(key));
      inFlight.set(key, flight);
    }
    return flight;
  }

  /** The upstream answered 401 to `rejectedToken`: a newer token if another caller refreshed, else one refresh now. */
  async function afterRejection(connectionId: string, rejectedToken: string): Promise<FreshToken> {
    const row = await readConnection(deps.db, connectionId);
    if (!row || row.status !== "connected") throw new NeedsReconnectError(connectionId);
    const now = await current(row);
    if (now.accessToken !== rejectedToken) return now;
    return accessToken(connectionId, { generation: row.generation });
  }

  return { accessToken, afterRejection };
}
export type TokenRefresher = ReturnType<typeof createTokenRefresher>;
