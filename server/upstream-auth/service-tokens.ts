// Tokens no user connects for: client_credentials (the server's own client) and token exchange (RFC 8693: the
// agent's token from the shared identity provider traded for one whose audience is the upstream). Kept in this
// process until shortly before expiry, never stored; each new value is handed to the redactor before use.
import { createHash } from "node:crypto";
import type { OAuthClientInformationMixed } from "@modelcontextprotocol/sdk/shared/auth.js";
import { GatewayError } from "../errors";
import { discoverAuthorizationServer } from "./discover-authorization-server";
import { requestToken, TokenEndpointError } from "./token-endpoint";
import { httpUrlOf, loadAuthServer, type UpstreamAuthDeps } from "./upstream-auth-deps";

const TOKEN_EXCHANGE = "urn:ietf:params:oauth:grant-type:token-exchange";
const ACCESS_TOKEN_TYPE = "urn:ietf:params:oauth:token-type:access_token";
const MAX_CACHED = 1000;
const DEFAULT_TTL_S = 300;

type Cached = { accessToken: string; until: number };

export function createServiceTokens(deps: UpstreamAuthDeps & { remember: (value: string) => Promise<void> }) {
  const skew = deps.refreshSkewMs ?? 60_000;
  const cache = new Map<string, Cached>();
  const inFlight = new Map<string, Promise<string>>();

  async function clientOf(serverId: string) {
    const server = await loadAuthServer(deps.db, serverId);
    const as = await discoverAuthorizationServer(httpUrlOf(server), deps.fetchFn);
    if (!server.config.clientId) throw new GatewayError("upstream_auth_failed", `The server ${server.slug} has no client id: an admin enters the client id and secret of its ${server.mode} mode.`);
    const secret = server.config.clientSecretId ? await deps.secrets.unseal(server.config.clientSecretId) : null;
    const client: OAuthClientInformationMixed = secret ? { client_id: server.config.clientId, client_secret: secret } : { client_id: server.config.clientId };
    return { server, as, client };
  }

  async function mint(key: string, make: () => Promise<{ accessToken: string; expiresIn: number | undefined }>): Promise<string> {
    const hit = cache.get(key);
    if (hit && hit.until > Date.now()) return hit.accessToken;
    let flight = inFlight.get(key);
    if (!flight) {
      flight = make()
        .then(async ({ accessToken, expiresIn }) => {
          await deps.remember(accessToken);
          if (cache.size >= MAX_CACHED) cache.delete(cache.keys().next().value!);
          cache.set(key, { accessToken, until: Date.now() + (expiresIn ?? DEFAULT_TTL_S) * 1000 - skew });
          return accessToken;
        })
        .finally(() => inFlight.delete(key));
      inFlight.set(key, flight);
    }
    return flight;
  }

  const refused = (slug: string, err: unknown) =>
    new GatewayError("upstream_auth_failed", `The authorization server of ${slug} refused: ${err instanceof TokenEndpointError ? err.message : (err as Error).message}`, undefined, { cause: err });

  return {
    clientCredentials: (serverId: string) =>
      mint(`cc:${serverId}`, async () => {
        const { server, as, client } = await clientOf(serverId);
        const scope = server.config.scopes.join(" ");
        const tokens = await requestToken(as.metadata, client, { grant_type: "client_credentials", resource: as.resource, ...(scope && { scope }) }, deps.fetchFn).catch((err: unknown) => {
          throw refused(server.slug, err);
        });
        return { accessToken: tokens.access_token, expiresIn: tokens.expires_in };
      }),

    exchange: (serverId: string, subjectToken: string) =>
      mint(`tx:${serverId}:${createHash("sha256").update(subjectToken).digest("base64url")}`, async () => {
        const { server, as, client } = await clientOf(serverId);
        const scope = server.config.scopes.join(" ");
        const params = { grant_type: TOKEN_EXCHANGE, subject_token: subjectToken, subject_token_type: ACCESS_TOKEN_TYPE, requested_token_type: ACCESS_TOKEN_TYPE, resource: as.resource, audience: server.config.audience ?? as.resource, ...(scope && { scope }) };
        const tokens = await requestToken(as.metadata, client, params, deps.fetchFn).catch((err: unknown) => {
          throw refused(server.slug, err);
        });
        return { accessToken: tokens.access_token, expiresIn: tokens.expires_in };
      }),

    /** The upstream refused a service token: forget it so the next call mints a new one. */
    forget: (accessToken: string) => {
      for (const [k, v] of cache) if (v.accessToken === accessToken) cache.delete(k);
    },
  };
}
export type ServiceTokens = ReturnType<typeof createServiceTokens>;
