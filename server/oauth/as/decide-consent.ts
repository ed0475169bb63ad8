// A user's decision on an authorization request. Allow creates the agent session the client will work in:
// agentId `oauth:<client_id>`, the consented tools and paths as its whitelist, its lifetime chosen on the page
// (at most the administrator's maximum); the finish step binds the grant to it. A tool the user does not hold
// refuses the whole consent (consent never widens rights). Deny is recorded too. Both are audited.
import { ZConsentDecision, type TConsentDecision } from "../../../lib/oauth-schemas";
import { recordAudit } from "../../audit/record-audit";
import type { RequestContext } from "../../context";
import type { Db, User } from "../../db/client";
import { GatewayError } from "../../errors";
import { intersectToolPatterns } from "../../policy/patterns";
import { heldFrom, loadPolicySnapshot } from "../../policy/policy-cache";
import type { SecretKey } from "../../secrets/secret-crypto";
import { createAgentSession } from "../../sessions/agent-sessions";
import { refuseBlockedClient } from "./block-oauth-client";
import { oauthAgentId } from "../oauth-session";
import { consentVirtualServer } from "./consent-virtual-server";
import { assertConsentCsrf, loadConsentRequest } from "./consent-request";
import { interactionFinishPath } from "./oauth-server-paths";
import { keepClient } from "./prisma-oidc-adapter";

/** What the finish step reads (oauth_records model Consent, id = interaction uid; used once). */
export type StoredConsent = { userId: string; clientId: string } & ({ decision: "allow"; sessionId: string } | { decision: "deny" } | { decision: "pending" });

export const CONSENT_MODEL = "Consent";

/** The browser's request: `origin` and `fetchSite` (Origin, Sec-Fetch-Site), `publicOrigin` PUBLIC_URL's origin. */
export type ConsentRequestSource = { origin: string | null; fetchSite: string | null; publicOrigin: string };

function assertSameOrigin(src: ConsentRequestSource): void {
  const crossSite = src.fetchSite !== null && src.fetchSite !== "same-origin";
  if (crossSite || (src.origin !== null && src.origin !== src.publicOrigin)) {
    throw new GatewayError("consent_forged", `A consent must be sent from the console itself (origin ${src.origin ?? "unknown"}, fetch site ${src.fetchSite ?? "unknown"}).`);
  }
}

export async function decideConsent(db: Db, secret: SecretKey, ctx: RequestContext, user: User, uid: string, raw: TConsentDecision, src: ConsentRequestSource): Promise<{ redirectTo: string; sessionId?: string }> {
  assertSameOrigin(src);
  const input = ZConsentDecision.parse(raw);
  assertConsentCsrf(secret, uid, user.id, input.csrfToken);
  const request = await loadConsentRequest(db, secret, uid, user.id);
  const target = { targetType: "oauth_client", targetId: request.clientId };
  if (input.decision === "deny") {
    await db.$transaction(async (tx) => {
      await claim(tx, uid, { userId: user.id, clientId: request.clientId, decision: "deny" });
      await recordAudit(tx, ctx, { action: "oauth.denied", category: "security", ...target, details: { clientId: request.clientId, redirectHost: request.redirectHost } });
    });
    return { redirectTo: interactionFinishPath(uid) };
  }
  const held = heldFrom(await loadPolicySnapshot(db), user);
  const { dropped } = intersectToolPatterns(input.tools, held.tools);
  if (dropped.length) throw new GatewayError("consent_tools_not_held", `You do not hold ${dropped.join(", ")}: a client can be given only tools you hold.`, { tools: dropped });
  // Claimed before the session is made: a second decision on the same request (a double click, a replayed
  // POST) is refused instead of making a second session.
  await claim(db, uid, { userId: user.id, clientId: request.clientId, decision: "pending" });
  let session: Awaited<ReturnType<typeof createAgentSession>>;
  try {
    const virtualServer = consentVirtualServer(request.resource, input.virtualServer);
    const ask = { agentId: oauthAgentId(request.clientId), tools: input.tools, paths: input.paths, ...(input.ttlSeconds !== undefined && { ttlSeconds: input.ttlSeconds }), ...(virtualServer !== undefined && { virtualServer }) };
    // The decision, the kept registration and oauth.authorized commit with the session, or none of them does.
    session = await createAgentSession(db, ctx, user.id, ask, undefined, async (tx, sessionId) => {
      await refuseBlockedClient(tx, request.clientId);
      const allowed: StoredConsent = { userId: user.id, clientId: request.clientId, decision: "allow", sessionId };
      await tx.oAuthRecord.update({ where: { model_id: { model: CONSENT_MODEL, id: uid } }, data: { payload: allowed } });
      await keepClient(tx, request.clientId);
      const row = await tx.agentSession.findUniqueOrThrow({ where: { id: sessionId } });
      await recordAudit(tx, ctx, {
        action: "oauth.authorized",
        category: "security",
        ...target,
        details: { clientId: request.clientId, agentSessionId: sessionId, tools: row.tools, paths: row.paths, expiresAt: row.expiresAt.toISOString(), redirectHost: request.redirectHost, verified: request.verified },
      });
    });
  } catch (err) {
    await db.oAuthRecord.deleteMany({ where: { model: CONSENT_MODEL, id: uid } }); // a refused lifetime, say: the user may try again
    throw err;
  }
  return { redirectTo: interactionFinishPath(uid), sessionId: session.id };
}

/** Records the decision on `uid` once: a second one is a 409 conflict (the primary key claims it). */
async function claim(tx: Parameters<typeof keepClient>[0], uid: string, consent: StoredConsent): Promise<void> {
  try {
    await tx.oAuthRecord.create({ data: { model: CONSENT_MODEL, id: uid, payload: consent, expiresAt: new Date(Date.now() + 600_000) } });
  } catch (err) {
    if ((err as { code?: unknown }).code === "P2002") throw new GatewayError("conflict", "This authorization request was already decided.");
    throw err;
  }
}
