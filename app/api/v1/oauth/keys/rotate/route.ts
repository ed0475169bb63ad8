// POST /api/v1/oauth/keys/rotate – a new signing key for the embedded authorization server (admins)
import { apiRoute } from "@/app/_lib/api";
import { getGateway } from "@/app/_lib/gateway";
import { GatewayError } from "@/server/errors";

export const POST = apiRoute("ADMIN", async ({ ctx }) => {
  const oauth = getGateway().oauthServer;
  if (!oauth) throw new GatewayError("not_found", "The embedded authorization server is not enabled (PUBLIC_URL unset, OAUTH_ISSUER set or OAUTH_SERVER=off).");
  return oauth.rotateKeys(ctx);
});
