// oidc-provider's storage on PostgreSQL: every model (Client, Grant, AuthorizationCode, AccessToken,
// RefreshToken, Interaction, Session, …) in the one `oauth_records` table keyed by (model, id). Expired rows
// are never returned (and swept: sweepExpiredRecords); a registered client lives until `clientUnusedTtlSeconds` unless a consent uses it; `consume` marks a code or refresh token used, which is how the library
// detects a replay and revokes the grant; `revokeByGrantId` deletes everything a grant issued. A client an
// admin blocked (oauth_blocked_clients) is refused on every lookup.
import type { Db, Prisma } from "../../db/client";
import { looksLikeClientIdUrl } from "../client-id-url";

export type OidcPayload = Record<string, unknown> & { grantId?: string; uid?: string; consumed?: number };

/** A Grant whose bound agent session is no longer usable is not found: refresh and code exchange then fail. */
export type GrantGate = (grantId: string) => Promise<boolean>;

/**
 * The seam for client ID metadata documents: a client_id that is an HTTPS URL is resolved by fetching its
 * document (server/oauth/client-metadata-document.ts, with its SSRF guard), not looked up in the table.
 */
export type ResolveUrlClientId = (url: string) => Promise<OidcPayload | undefined>;

/** The error a blocked client's lookup throws (oidc-provider's InvalidClient, made where the library is imported). */
export type BlockedClientError = (clientId: string) => Error;

export type AdapterOptions = { grantUsable?: GrantGate; clientUnusedTtlSeconds?: number; resolveUrlClientId?: ResolveUrlClientId | undefined; blockedClientError?: BlockedClientError };

export function prismaOidcAdapterFor(db: Db, opts: AdapterOptions = {}) {
  return class PrismaOidcAdapter {
    constructor(readonly model: string) {}

    async upsert(id: string, payload: OidcPayload, expiresIn?: number): Promise<void> {
      const data = {
        payload: payload as Prisma.InputJsonValue,
        grantId: typeof payload.grantId === "string" ? payload.grantId : null,
        uid: typeof payload.uid === "string" ? payload.uid : null,
        expiresAt: expiresIn ? new Date(Date.now() + expiresIn * 1000) : this.model === "Client" && opts.clientUnusedTtlSeconds ? new Date(Date.now() + opts.clientUnusedTtlSeconds * 1000) : null,
      };
      await db.oAuthRecord.upsert({ where: { model_id: { model: this.model, id } }, create: { model: this.model, id, ...data }, update: data });
    }

    async find(id: string): Promise<OidcPayload | undefined> {
      if (this.model === "Client") await refuseBlocked(db, id, opts.blockedClientError);
      if (this.model === "Client" && looksLikeClientIdUrl(id)) return opts.resolveUrlClientId?.(id);
      const row = await db.oAuthRecord.findUnique({ where: { model_id: { model: this.model, id } } });
      if (!row || (row.expiresAt && row.expiresAt <= new Date())) return undefined;
      if (this.model === "Grant" && opts.grantUsable && !(await opts.grantUsable(id))) return undefined;
      const payload = row.payload as OidcPayload;
      return row.consumedAt ? { ...payload, consumed: Math.floor(row.consumedAt.getTime() / 1000) } : payload;
    }

    async findByUid(uid: string): Promise<OidcPayload | undefined> {
      const row = await db.oAuthRecord.findFirst({ where: { model: this.model, uid } });
      return row ? this.find(row.id) : undefined;
    }

    findByUserCode(): Promise<undefined> {
      return Promise.resolve(undefined); // the device flow is not enabled
    }

    async consume(id: string): Promise<void> {
      await db.oAuthRecord.updateMany({ where: { model: this.model, id }, data: { consumedAt: new Date() } });
    }

    async destroy(id: string): Promise<void> {
      await db.oAuthRecord.deleteMany({ where: { model: this.model, id } });
    }

    async revokeByGrantId(grantId: string): Promise<void> {
      await revokeGrantRecords(db, grantId);
    }
  };
}

/**
 * An admin's block holds on every client lookup (authorize, token exchange, refresh), read from the table each
 * time (one primary-key read) so every gateway process agrees at once, with no cache to invalidate.
 */
async function refuseBlocked(db: Pick<Db, "oAuthBlockedClient">, clientId: string, blockedError: BlockedClientError | undefined): Promise<void> {
  const blocked = await db.oAuthBlockedClient.findUnique({ where: { clientId }, select: { clientId: true } });
  if (blocked) throw blockedError?.(clientId) ?? new Error(`The client ${clientId.slice(0, 200)} is blocked by an administrator.`);
}

/** Deletes a grant and every code and token it issued (a revoked agent session, a replayed code or refresh token). */
export async function revokeGrantRecords(db: Pick<Db, "oAuthRecord">, grantId: string): Promise<void> {
  await db.oAuthRecord.deleteMany({ where: { OR: [{ grantId }, { model: "Grant", id: grantId }] } });
}

/** A registered client a user consented to is kept: only unused registrations expire. */
export async function keepClient(db: Pick<Db, "oAuthRecord">, clientId: string): Promise<void> {
  await db.oAuthRecord.updateMany({ where: { model: "Client", id: clientId }, data: { expiresAt: null } });
}

/** Deletes expired rows (codes, tokens, interactions, unused registrations); the adapter never returns them anyway. */
export async function sweepExpiredRecords(db: Pick<Db, "oAuthRecord">, now = new Date()): Promise<number> {
  return (await db.oAuthRecord.deleteMany({ where: { expiresAt: { lt: now } } })).count;
}
