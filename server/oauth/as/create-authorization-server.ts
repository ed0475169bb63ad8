// The embedded OAuth 2.1 authorization server for MCP clients, on oidc-provider (a certified OpenID Provider
// library): authorization code with PKCE S256 only, `iss` in the authorization response, resource indicators
// whose audience is an MCP endpoint's URL, short-lived JWT access tokens bound to an agent session, rotating
// refresh tokens whose reuse revokes the grant, revocation, and dynamic registration of public clients.
// Answers Node's request/response on `portcullis start`'s HTTP server (oauth-server-paths.ts); the consent page
// is the console's (app/(console)/authorize), which stores its decision for the finish step here.
import { createHmac } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import type { Configuration } from "oidc-provider";
import { recordAudit } from "../../audit/record-audit";
import type { RequestContext } from "../../context";
import type { Db, User } from "../../db/client";
import type { Logger } from "../../logger";
import { mcpEndpointOf } from "../../mcp/mcp-endpoint-of";
import type { SecretKey } from "../../secrets/secret-crypto";
import { resourceUrlOf } from "../protected-resource";
import { OAUTH_SCOPE, type AuthorizationServerConfig } from "./authorization-server-config";
import { finishInteraction } from "./finish-interaction";
import { grantSessionUsable, sessionIdOfGrant } from "./grant-session";
import { AS_METADATA_PATHS, consentPagePath, isAuthorizationServerPath, OAUTH_PREFIX } from "./oauth-server-paths";
import { prismaOidcAdapterFor, sweepExpiredRecords, type ResolveUrlClientId } from "./prisma-oidc-adapter";
import type { ClientMetadataOutcome } from "../client-metadata-cache";
import { ClientMetadataError } from "../client-metadata-error";
import { createRegistrationLimiter } from "./registration-limiter";
import { ensureSigningKey, privateJwks, SIGNING_ALG } from "./signing-keys";

const SWEEP_INTERVAL_MS = 10 * 60_000;

export type AuthorizationServer = {
  /** Answers the request when it is the authorization server's; false when the path is not its. */
  handle(req: IncomingMessage, res: ServerResponse): Promise<boolean>;
};

export type AuthorizationServerDeps = {
  db: Db;
  logger: Logger;
  config: AuthorizationServerConfig;
  secretKey(): Promise<SecretKey>;
  /**
   * Client ID metadata documents (an HTTPS URL as client_id), fetched through the outbound guard
   * (server/oauth/client-metadata-document.ts); absent: such ids are unknown. oidc-provider's own fetcher stays off.
   */
  resolveClientDocument?: ((clientId: string) => Promise<ClientMetadataOutcome>) | undefined;
};

/**
 * An authorization request without `scope` asks for the default, `mcp` (RFC 6749 §3.3: the server processes it
 * with a predefined default): MCP clients omit `scope` when they find none to ask for, and oidc-provider would
 * otherwise grant nothing and answer access_denied after the user had allowed. A request that names scopes is
 * left as it is.
 */
export function withDefaultScope(url: string): string {
  const q = url.indexOf("?");
  if (q < 0) return url;
  const params = new URLSearchParams(url.slice(q + 1));
  if (params.has("scope")) return url;
  params.set("scope", OAUTH_SCOPE);
  return `${url.slice(0, q)}?${params.toString()}`;
}

/** A resource indicator the server issues tokens for: the URL of one MCP endpoint under the issuer. */
export function mcpResourceOf(issuer: string, indicator: string): string | null {
  if (!indicator.startsWith(`${issuer}/`)) return null;
  const endpoint = mcpEndpointOf(indicator.slice(issuer.length));
  return endpoint && resourceUrlOf(issuer, endpoint) === indicator ? indicator : null;
}

const userContext = (user: User): RequestContext => ({
  actor: { type: "user", userId: user.id, email: user.email, role: user.role },
  requestId: crypto.randomUUID(),
  via: "agent_token",
});

export function createAuthorizationServer(deps: AuthorizationServerDeps): AuthorizationServer {
  const { db, config, logger } = deps;
  const limiter = createRegistrationLimiter(config.registrationsPerHour);
  // The provider is built from the live keys, and again after a rotation (any process's) changes them.
  let built: { keys: string; provider: Promise<import("oidc-provider").default> } | null = null;

  /** The adapter's resolver of URL client ids: the document's metadata, or its refusal as the OAuth error it names. */
  function urlClients(errors: typeof import("oidc-provider").errors): ResolveUrlClientId | undefined {
    const resolve = deps.resolveClientDocument;
    if (!resolve) return undefined;
    return async (url) => {
      const outcome = await resolve(url);
      if (outcome instanceof ClientMetadataError) {
        logger.info({ clientId: url.slice(0, 200), reason: outcome.reason }, "a client's metadata document was refused");
        throw outcome.code === "invalid_client_metadata" ? new errors.InvalidClientMetadata(outcome.message) : new errors.InvalidClient(outcome.message);
      }
      // "verified" is ours (the consent page derives it from the https client id), not client metadata.
      const { verified: _verified, ...metadata } = outcome;
      return metadata;
    };
  }

  async function build(secret: SecretKey): Promise<import("oidc-provider").default> {
    const { default: Provider, errors } = await import("oidc-provider");
    const retain = config.accessTokenTtlSeconds;
    const configuration: Configuration = {
      adapter: prismaOidcAdapterFor(db, { grantUsable: (id) => grantSessionUsable(db, id), clientUnusedTtlSeconds: config.clientUnusedTtlSeconds, resolveUrlClientId: urlClients(errors), blockedClientError: (id) => new errors.InvalidClient(`the client ${id.slice(0, 200)} is blocked by an administrator`) }),
      // MCP 2025-11-25: clients may identify themselves by a metadata document (the adapter resolves it).
      ...(deps.resolveClientDocument && { discovery: { client_id_metadata_document_supported: true } }),
      jwks: await privateJwks(db, secret, retain),
      cookies: { keys: [createHmac("sha256", secret.key).update("oauth-server-cookies").digest("base64url")] },
      async findAccount(_ctx, id) {
        const user = await db.user.findUnique({ where: { id } });
        return user && !user.disabled ? { accountId: id, claims: () => ({ sub: id }) } : undefined;
      },
      routes: {
        authorization: `${OAUTH_PREFIX}/authorize`,
        token: `${OAUTH_PREFIX}/token`,
        jwks: `${OAUTH_PREFIX}/jwks`,
        registration: `${OAUTH_PREFIX}/register`,
        revocation: `${OAUTH_PREFIX}/revoke`,
        userinfo: `${OAUTH_PREFIX}/userinfo`,
        end_session: `${OAUTH_PREFIX}/session/end`,
        introspection: `${OAUTH_PREFIX}/introspect`,
      },
      interactions: { url: (_ctx, interaction) => `${OAUTH_PREFIX}/interaction/${interaction.uid}` },
      responseTypes: ["code"],
      clientAuthMethods: ["none"], // public clients only: nothing to keep secret on a laptop
      clientDefaults: { grant_types: ["authorization_code", "refresh_token"], response_types: ["code"], token_endpoint_auth_method: "none", id_token_signed_response_alg: SIGNING_ALG },
      pkce: { required: () => true },
      // `mcp` is also a resource scope (getResourceServerInfo below); listed here so registrations may name it.
      scopes: ["openid", "offline_access", OAUTH_SCOPE],
      // Every authorization asks for consent again (that is where a client steps up to more tools): only the
      // grant this interaction's consent just made is loaded, never an earlier one of the browser's session.
      loadExistingGrant: async (ctx) => {
        const grantId = ctx.oidc.result?.consent?.grantId;
        return grantId ? ctx.oidc.provider.Grant.find(grantId) : undefined;
      },
      issueRefreshToken: (_ctx, client) => client.grantTypeAllowed("refresh_token"),
      async extraTokenClaims(ctx, token) {
        if (token.kind !== "AccessToken" || !token.grantId) return undefined;
        const sessionId = await sessionIdOfGrant(db, token.grantId);
        // Audited before the token is answered (an event listener would run after, unawaited).
        if (sessionId && ctx.oidc.params?.grant_type === "refresh_token") await auditRefresh(sessionId, token.grantId, token.clientId);
        return sessionId ? { pcs_sid: sessionId } : undefined;
      },
      ttl: {
        AccessToken: config.accessTokenTtlSeconds,
        AuthorizationCode: 60,
        RefreshToken: config.refreshTokenTtlSeconds,
        Grant: config.refreshTokenTtlSeconds,
        Interaction: 600,
        Session: 86_400,
      },
      features: {
        devInteractions: { enabled: false },
        registration: { enabled: true, initialAccessToken: false },
        // A client revokes only its own tokens.
        revocation: { enabled: true, allowedPolicy: (_ctx, client, token) => Promise.resolve(token.clientId === client.clientId) },
        rpInitiatedLogout: { enabled: false },
        resourceIndicators: {
          enabled: true,
          defaultResource: () => `${config.issuer}/mcp`,
          useGrantedResource: () => true,
          getResourceServerInfo(_ctx, indicator) {
            if (!mcpResourceOf(config.issuer, indicator)) throw new errors.InvalidTarget(`${indicator} is not an MCP endpoint of this gateway`);
            return { scope: OAUTH_SCOPE, audience: indicator, accessTokenTTL: config.accessTokenTtlSeconds, accessTokenFormat: "jwt", jwt: { sign: { alg: SIGNING_ALG } } };
          },
        },
      },
      enabledJWA: { idTokenSigningAlgValues: [SIGNING_ALG] },
      // A refusal a person sees (a bad redirect_uri, an unknown client) is plain text: nothing of the request echoed as HTML.
      renderError(ctx, out) {
        ctx.type = "text/plain; charset=utf-8";
        ctx.body = `${String(out.error)}: ${String(out.error_description ?? "")}\nStart again from the application.`;
      },
    };
    const provider = new Provider(config.issuer, configuration);
    provider.proxy = true; // the host and scheme are pinned to PUBLIC_URL's by handle() below
    provider.on("server_error", (_ctx: unknown, err: unknown) => logger.error({ err }, "authorization server error"));
    return provider;
  }

  async function auditRefresh(sessionId: string, grantId: string, clientId: string | undefined): Promise<void> {
    const session = await db.agentSession.findUnique({ where: { id: sessionId }, include: { user: true } });
    if (session) await recordAudit(db, userContext(session.user), { action: "oauth.token_refreshed", category: "security", targetType: "agent_session", targetId: session.id, details: { clientId: clientId ?? null, grantId } });
  }

  let lastSweep = 0;
  async function provider() {
    // Expired rows go now and then, from whichever process is serving OAuth requests.
    if (Date.now() - lastSweep > SWEEP_INTERVAL_MS) {
      lastSweep = Date.now();
      void sweepExpiredRecords(db).catch((err: unknown) => logger.warn({ err }, "sweeping expired OAuth records failed"));
    }
    const secret = await deps.secretKey();
    await ensureSigningKey(db, secret);
    const rows = await db.oAuthSigningKey.findMany({ select: { kid: true, retiredAt: true }, orderBy: { kid: "asc" } });
    const keys = rows.map((r) => `${r.kid}:${r.retiredAt ? 1 : 0}`).join(",");
    if (built?.keys !== keys) {
      const p = build(secret);
      p.catch(() => (built = null));
      built = { keys, provider: p };
    }
    return built.provider;
  }

  return {
    async handle(req, res) {
      const url = req.url ?? "/";
      if (!isAuthorizationServerPath(url)) return false;
      const origin = new URL(config.issuer);
      // URLs the provider writes (metadata, redirects) are PUBLIC_URL's, whatever host the request came in on.
      req.headers["x-forwarded-host"] = origin.host;
      req.headers["x-forwarded-proto"] = origin.protocol.slice(0, -1);
      const path = url.split("?", 1)[0]!;
      if ((AS_METADATA_PATHS as readonly string[]).includes(path)) req.url = `/.well-known/openid-configuration`;
      if (path === `${OAUTH_PREFIX}/authorize`) req.url = withDefaultScope(url);
      if (req.method === "POST" && path === `${OAUTH_PREFIX}/register` && !limiter.take(req.socket.remoteAddress ?? "unknown")) {
        res.writeHead(429, { "content-type": "application/json", "retry-after": "3600" }).end(JSON.stringify({ error: "rate_limited", error_description: "Too many client registrations from this address; try again later." }));
        return true;
      }
      const p = await provider();
      const interaction = /^\/oauth\/interaction\/([^/]+)(\/finish)?$/.exec(path);
      if (interaction && req.method === "GET") {
        try {
          const details = await p.interactionDetails(req, res);
          // The cookie names the browser's interaction; the path must be that one.
          if (details.uid !== decodeURIComponent(interaction[1]!)) throw new Error("the interaction in the address is not this browser's");
          if (interaction[2]) await finishInteraction({ db, provider: p }, req, res, details);
          else res.writeHead(303, { location: consentPagePath(details.uid) }).end();
        } catch (err) {
          logger.warn({ err }, "authorization interaction refused");
          res.writeHead(400, { "content-type": "text/plain; charset=utf-8" }).end(`This sign-in request cannot continue: ${(err as Error).message}. Start again from the application.`);
        }
        return true;
      }
      await p.callback()(req, res);
      return true;
    },
  };
}
