// The embedded authorization server's admin routes answer 404 when it is not running.
import { getGateway } from "@/app/_lib/gateway";
import { GatewayError } from "@/server/errors";
import type { OAuthServerService } from "@/server/oauth/as/oauth-server-service";

export function oauthServerOrNotFound(): OAuthServerService {
  const oauth = getGateway().oauthServer;
  if (!oauth) throw new GatewayError("not_found", "The embedded authorization server is not enabled (PUBLIC_URL unset, OAUTH_ISSUER set or OAUTH_SERVER=off).");
  return oauth;
}
