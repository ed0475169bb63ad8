// What the upstream OAuth client needs from the gateway, passed from createGateway (no module state but the
// discovery cache).
import type { Db } from "../db/client";
import { GatewayError, notFound } from "../errors";
import type { Logger } from "../logger";
import type { SecretStore } from "../secrets/secret-store";
import { readAuthConfig, readAuthMode } from "./auth-config";

export type UpstreamAuthDeps = {
  db: Db;
  secrets: SecretStore;
  logger: Logger;
  /** PUBLIC_URL: the redirect URI, the client ID metadata document and the connect page live under it. */
  publicUrl: string;
  /** Reloads this process's redactor (after a token was stored, before it is handed out). */
  redactionReload: () => Promise<void>;
  fetchFn?: typeof fetch;
  /** How long before expiry a token is refreshed (ms). */
  refreshSkewMs?: number;
};

export const AUTHORIZATION_TTL_MS = 10 * 60_000;

const HTTP_TRANSPORTS = new Set(["HTTP", "SSE"]);

const SERVER_FIELDS = { id: true, slug: true, name: true, url: true, transport: true, enabled: true, authMode: true, authConfig: true } as const;

/** The server's row as the auth code reads it: 404 for an unknown id. */
export async function loadAuthServer(db: Db, serverId: string) {
  const row = await db.upstreamServer.findUnique({ where: { id: serverId }, select: SERVER_FIELDS });
  if (!row) throw notFound(`The server ${serverId}`);
  return { ...row, mode: readAuthMode(row.authMode), config: readAuthConfig(row.authConfig) };
}
export type AuthServerRow = Awaited<ReturnType<typeof loadAuthServer>>;

/** The URL bearer tokens go to: only HTTP servers take them. */
export function httpUrlOf(server: { slug: string; url: string | null; transport: string }): string {
  if (!HTTP_TRANSPORTS.has(server.transport) || !server.url) throw new GatewayError("auth_mode_requires_http", `The server ${server.slug} is not reached over HTTP: OAuth modes need a Streamable HTTP or SSE server.`);
  return server.url;
}

/** REST paths name a server by id (the console) or slug (people, scripts): the id first. */
export async function resolveServerId(db: Db, idOrSlug: string): Promise<string> {
  const row = (await db.upstreamServer.findUnique({ where: { id: idOrSlug }, select: { id: true } })) ?? (await db.upstreamServer.findUnique({ where: { slug: idOrSlug }, select: { id: true } }));
  if (!row) throw notFound(`The server ${idOrSlug}`);
  return row.id;
}
