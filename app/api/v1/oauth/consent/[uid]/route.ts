// POST /api/v1/oauth/consent/{uid} – the signed-in user allows or denies an OAuth client's authorization request
import { apiRoute, readJson } from "@/app/_lib/api";
import { getGateway } from "@/app/_lib/gateway";
import { ZConsentDecision } from "@/lib/oauth-schemas";
import { GatewayError } from "@/server/errors";

export const POST = apiRoute<{ uid: string }>("USER", async ({ req, ctx, user, params }) => {
  const body = await readJson(req, ZConsentDecision);
  const oauth = getGateway().oauthServer;
  if (!oauth) throw new GatewayError("not_found", "The embedded authorization server is not enabled (PUBLIC_URL unset, OAUTH_ISSUER set or OAUTH_SERVER=off).");
  // A consent is a browser's, from the console page: a bearer token (pct_) cannot give one.
  if (ctx.via !== "session") throw new GatewayError("consent_forged", "A consent is given on the console's page, signed in, not with an API token.");
  return oauth.consent.decide(ctx, user, params.uid, body, { origin: req.headers.get("origin"), fetchSite: req.headers.get("sec-fetch-site") });
});
