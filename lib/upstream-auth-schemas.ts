// Upstream OAuth connections (issue 22): the REST contract of the Connections page and the servers' auth card.
import { z } from "zod";

export const ZConnectionMode = z.enum(["shared", "per_user"]);
export const ZConnectionStatus = z.enum(["connected", "needs_reconnect"]);

export const ZConnection = z.object({
  id: z.string(),
  serverId: z.string(),
  serverSlug: z.string(),
  serverName: z.string(),
  mode: ZConnectionMode,
  status: ZConnectionStatus,
  issuer: z.string(),
  /** The token's email, preferred_username or sub, whichever it has. */
  account: z.string().nullable(),
  scopes: z.array(z.string()),
  expiresAt: z.string().nullable(),
  lastUsedAt: z.string().nullable(),
  connectedAt: z.string(),
  /** Why it needs reconnecting (the provider's refusal), null while connected. */
  lastError: z.string().nullable(),
});
export type TConnection = z.infer<typeof ZConnection>;

export const ZConnectionList = z.object({
  connections: z.array(ZConnection),
  /** per_user servers the user may use and has not connected. */
  available: z.array(z.object({ serverId: z.string(), serverSlug: z.string(), serverName: z.string() })),
});
export type TConnectionList = z.infer<typeof ZConnectionList>;

export const ZAuthorizationUrl = z.object({ authorizationUrl: z.string() });

export const ZUpstreamAuthModeName = z.enum(["none", "shared", "per_user", "token_exchange", "client_credentials"]);

export const ZServerAuth = z.object({
  mode: ZUpstreamAuthModeName,
  issuer: z.string().nullable(),
  registration: z.enum(["metadata_document", "dynamic", "pre_registered"]).nullable(),
  clientId: z.string().nullable(),
  scopes: z.array(z.string()),
  shared: ZConnection.nullable(),
  connectedUsers: z.number().int(),
  tokenExchange: z.object({ audience: z.string().nullable() }).nullable(),
});
export type TServerAuth = z.infer<typeof ZServerAuth>;

export const ZPutServerAuth = z
  .object({
    mode: ZUpstreamAuthModeName,
    clientId: z.string().min(1).max(2048).nullish(),
    /** Stored sealed in the secret store, never returned. */
    clientSecret: z.string().min(1).max(4096).nullish(),
    scopes: z.array(z.string().min(1).max(200).regex(/^[\x21\x23-\x5b\x5d-\x7e]+$/, "a scope token (RFC 6749 §3.3)")).max(50).optional(),
    audience: z.string().min(1).max(2048).nullish(),
  })
  .strict();
export type TPutServerAuth = z.infer<typeof ZPutServerAuth>;

export const ZServerConnectionList = z.object({ connections: z.array(ZConnection.extend({ userEmail: z.string().nullable() })) });

/** A 204 answer (DELETE /api/v1/connections/{id}): no body. */
export const ZNoContent = z.null();
