// Upstream credentials' REST contracts (issue 22): a user's connections to OAuth-protected upstream servers
// (/api/v1/connections) and a server's authentication settings (/api/v1/servers/{id}/auth). Tokens never travel:
// a connection is described by its issuer, account, scopes and dates; a client secret only ever goes in.
import { z } from "zod";

export const UPSTREAM_AUTH_MODES = ["none", "shared", "per_user", "token_exchange", "client_credentials"] as const;
export const ZUpstreamAuthMode = z.enum(UPSTREAM_AUTH_MODES).meta({
  id: "UpstreamAuthMode",
  description:
    "none: static headers only; shared: one connection an admin makes; per_user: each user's own connection; token_exchange: the agent's token exchanged for the upstream's audience (RFC 8693); client_credentials: machine to machine",
});
export type TUpstreamAuthMode = z.infer<typeof ZUpstreamAuthMode>;

export const ZClientRegistration = z.enum(["metadata_document", "dynamic", "pre_registered"]).meta({
  id: "UpstreamClientRegistration",
  description:
    "How Portcullis identifies itself to the upstream's authorization server: its client ID metadata document, dynamic registration, or a client id (and secret) an admin entered",
});
export type TClientRegistration = z.infer<typeof ZClientRegistration>;

export const ZConnectionStatus = z.enum(["connected", "needs_reconnect"]).meta({
  id: "UpstreamConnectionStatus",
  description: "needs_reconnect: the provider refused a refresh (or the grant was revoked); the user connects again",
});
export type TConnectionStatus = z.infer<typeof ZConnectionStatus>;

const ZDateTime = z.string().meta({ format: "date-time" });

export const ZUpstreamConnection = z
  .object({
    id: z.string(),
    serverId: z.string(),
    serverSlug: z.string(),
    serverName: z.string(),
    mode: z.enum(["shared", "per_user"]),
    status: ZConnectionStatus,
    issuer: z.string().meta({ description: "The authorization server that minted the tokens (they are bound to it)" }),
    account: z.string().meta({ description: "The token's email, preferred_username or sub, whichever it has" }),
    scopes: z.array(z.string()),
    expiresAt: ZDateTime.nullable().meta({ description: "When the access token expires (it is refreshed before)" }),
    lastUsedAt: ZDateTime.nullable(),
    connectedAt: ZDateTime,
  })
  .meta({ id: "UpstreamConnection" });
export type TUpstreamConnection = z.infer<typeof ZUpstreamConnection>;

export const ZAvailableServer = z
  .object({ serverId: z.string(), serverSlug: z.string(), serverName: z.string() })
  .meta({ id: "UpstreamAvailableServer" });
export type TAvailableServer = z.infer<typeof ZAvailableServer>;

export const ZMyConnections = z
  .object({
    connections: z.array(ZUpstreamConnection).meta({ description: "The signed-in user's own per_user connections" }),
    available: z
      .array(ZAvailableServer)
      .meta({ description: "per_user servers the user may use and has not connected yet" }),
  })
  .meta({ id: "MyUpstreamConnections" });
export type TMyConnections = z.infer<typeof ZMyConnections>;

export const ZAuthorizationUrl = z
  .object({
    authorizationUrl: z
      .string()
      .meta({
        description:
          "The provider's authorization endpoint; the browser goes there and returns to /oauth/upstream/callback",
      }),
  })
  .meta({ id: "UpstreamAuthorizationUrl" });
export type TAuthorizationUrl = z.infer<typeof ZAuthorizationUrl>;

export const ZServerAuth = z
  .object({
    mode: ZUpstreamAuthMode,
    issuer: z.string().nullable().meta({ description: "The upstream's authorization server, once discovered" }),
    registration: ZClientRegistration.nullable(),
    clientId: z.string().nullable(),
    scopes: z.array(z.string()),
    shared: ZUpstreamConnection.nullable().meta({ description: "The admin's connection in shared mode" }),
    connectedUsers: z.number().int().meta({ description: "Users with a per_user connection to this server" }),
    tokenExchange: z.object({ audience: z.string().nullable() }).nullable(),
  })
  .meta({ id: "UpstreamServerAuth" });
export type TServerAuth = z.infer<typeof ZServerAuth>;

export const MAX_UPSTREAM_SCOPES = 50;

export const ZPutServerAuth = z
  .object({
    mode: ZUpstreamAuthMode,
    clientId: z
      .string()
      .trim()
      .min(1)
      .max(2048)
      .nullable()
      .optional()
      .meta({
        description:
          "A pre-registered client id; null returns to the metadata document or dynamic registration; absent keeps it",
      }),
    clientSecret: z
      .string()
      .min(1)
      .max(4096)
      .optional()
      .meta({ description: "Write-only: stored in the secret store, never returned; absent keeps it" }),
    scopes: z.array(z.string().trim().min(1).max(200)).max(MAX_UPSTREAM_SCOPES).optional(),
    audience: z
      .string()
      .trim()
      .min(1)
      .max(2048)
      .nullable()
      .optional()
      .meta({ description: "token_exchange: the audience asked for" }),
  })
  .strict()
  .meta({ id: "PutUpstreamServerAuth" });
export type TPutServerAuth = z.input<typeof ZPutServerAuth>;

export const ZServerConnection = ZUpstreamConnection.extend({ userEmail: z.string() }).meta({
  id: "UpstreamServerConnection",
});
export type TServerConnection = z.infer<typeof ZServerConnection>;

export const ZServerConnectionList = z
  .object({ connections: z.array(ZServerConnection) })
  .meta({ id: "UpstreamServerConnectionList" });
export type TServerConnectionList = z.infer<typeof ZServerConnectionList>;

/** The console page an agent's `upstream_auth_required` error points at: `${PUBLIC_URL}${connectPath(slug)}`. */
export const connectPath = (serverSlug: string) => `/connections?server=${encodeURIComponent(serverSlug)}`;
