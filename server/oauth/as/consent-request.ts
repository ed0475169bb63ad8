// The console's side of an authorization request: what the consent page shows (the client, where it sends
// the user back, the resource) and the token that binds a decision to this interaction and this user. Read
// from oidc-provider's stored Interaction and Client rows, so the console needs no provider instance.
import { createHmac, timingSafeEqual } from "node:crypto";
import type { DbTx } from "../../db/client";
import { GatewayError } from "../../errors";
import { looksLikeClientIdUrl } from "../client-id-url";
import type { SecretKey } from "../../secrets/secret-crypto";

export type ConsentRequest = {
  uid: string;
  clientId: string;
  clientName: string;
  logoUri: string | null;
  clientUri: string | null;
  redirectHost: string;
  /** Identified by a fetched client ID metadata document (an HTTPS client_id), not self-asserted by registration. */
  verified: boolean;
  resource: string | null;
  /** Binds the decision to this interaction and this user (checked by decideConsent). */
  csrfToken: string;
};

type InteractionPayload = { params?: { client_id?: unknown; redirect_uri?: unknown; resource?: unknown } };
export type ClientPayload = { client_name?: unknown; logo_uri?: unknown; client_uri?: unknown };
/** A client known by its metadata document (an HTTPS client_id): its metadata, or undefined when it is refused. */
export type FindUrlClient = (clientId: string) => Promise<ClientPayload | undefined>;

const str = (v: unknown) => (typeof v === "string" && v ? v : null);

async function liveRecord(db: DbTx, model: string, id: string) {
  const row = await db.oAuthRecord.findUnique({ where: { model_id: { model, id } } });
  return row && (!row.expiresAt || row.expiresAt > new Date()) ? row : null;
}

export const expired = () => new GatewayError("interaction_expired", "This authorization request is unknown or has expired. Start again from the application.");

export function consentCsrfToken(secret: SecretKey, uid: string, userId: string): string {
  return createHmac("sha256", secret.key).update(`oauth-consent\0${uid}\0${userId}`).digest("base64url");
}

export function assertConsentCsrf(secret: SecretKey, uid: string, userId: string, token: string): void {
  const want = Buffer.from(consentCsrfToken(secret, uid, userId));
  const got = Buffer.from(token);
  if (got.length !== want.length || !timingSafeEqual(got, want)) throw new GatewayError("consent_forged", "The consent was not sent from this authorization request's page for the signed-in user.");
}

/** The pending authorization request `uid` as the consent page shows it; interaction_expired when there is none. */
export async function loadConsentRequest(db: DbTx, secret: SecretKey, uid: string, userId: string, findUrlClient?: FindUrlClient): Promise<ConsentRequest> {
  const interaction = await liveRecord(db, "Interaction", uid);
  const params = (interaction?.payload as InteractionPayload | undefined)?.params;
  const clientId = str(params?.client_id);
  const redirectUri = str(params?.redirect_uri);
  if (!clientId || !redirectUri) throw expired();
  // A registered client is a stored record; one identified by its metadata document is not stored (its document
  // is, in the resolver's cache, which the authorization request has just filled).
  const client = looksLikeClientIdUrl(clientId) ? await findUrlClient?.(clientId) : ((await liveRecord(db, "Client", clientId))?.payload as ClientPayload | undefined);
  const resource = Array.isArray(params?.resource) ? str(params.resource[0]) : str(params?.resource);
  return {
    uid,
    clientId,
    clientName: str(client?.client_name) ?? clientId,
    logoUri: str(client?.logo_uri),
    clientUri: str(client?.client_uri),
    redirectHost: new URL(redirectUri).host,
    verified: looksLikeClientIdUrl(clientId),
    resource,
    csrfToken: consentCsrfToken(secret, uid, userId),
  };
}
