// The provider's side of a decided consent: the browser comes back from the console with the interaction's
// cookie; the stored decision (decide-consent.ts) becomes the interaction's result. Allow makes a grant of the
// `mcp` scope on the requested resource, bound to the consent's agent session; deny ends in access_denied.
import type { IncomingMessage, ServerResponse } from "node:http";
import type Provider from "oidc-provider";
import type { Db } from "../../db/client";
import { OAUTH_SCOPE } from "./authorization-server-config";
import { CONSENT_MODEL, type StoredConsent } from "./decide-consent";
import { bindGrantToSession } from "./grant-session";
import { consentPagePath } from "./oauth-server-paths";

type Details = Awaited<ReturnType<Provider["interactionDetails"]>>;

export async function finishInteraction(deps: { db: Db; provider: Provider }, req: IncomingMessage, res: ServerResponse, details: Details): Promise<void> {
  const { db, provider } = deps;
  const row = await db.oAuthRecord.findUnique({ where: { model_id: { model: CONSENT_MODEL, id: details.uid } } });
  const consent = row && (!row.expiresAt || row.expiresAt > new Date()) ? (row.payload as StoredConsent) : null;
  const clientId = String(details.params.client_id);
  // Not decided (or still being decided): back to the console page.
  if (!consent || consent.clientId !== clientId || consent.decision === "pending") return void res.writeHead(303, { location: consentPagePath(details.uid) }).end();
  await db.oAuthRecord.delete({ where: { model_id: { model: CONSENT_MODEL, id: details.uid } } }); // one use
  if (consent.decision === "deny") {
    return provider.interactionFinished(req, res, { error: "access_denied", error_description: "The user denied the request." }, { mergeWithLastSubmission: false });
  }
  const grant = new provider.Grant({ accountId: consent.userId, clientId });
  const requested = typeof details.params.resource === "string" ? details.params.resource : `${provider.issuer}/mcp`;
  grant.addResourceScope(requested, OAUTH_SCOPE);
  // The provider lists `mcp` among its scopes (registrations name it), so it is granted as such too.
  const oidcScopes = (typeof details.params.scope === "string" ? details.params.scope : "").split(" ").filter((s) => s === "openid" || s === "offline_access" || s === OAUTH_SCOPE);
  if (oidcScopes.length) grant.addOIDCScope(oidcScopes.join(" "));
  const grantId = await grant.save();
  await bindGrantToSession(db, grantId, consent.sessionId);
  await provider.interactionFinished(req, res, { login: { accountId: consent.userId }, consent: { grantId } }, { mergeWithLastSubmission: true });
}
