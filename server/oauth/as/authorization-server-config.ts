// The embedded authorization server's settings (OAUTH_SERVER_*), parsed by config.ts. On by default when
// PUBLIC_URL is set and enterprise mode (OAUTH_ISSUER) is not; its issuer is PUBLIC_URL.
import { z } from "zod";

export const ZOAuthServerEnv = z.object({
  OAUTH_SERVER: z.enum(["on", "off"]).default("on"),
  OAUTH_SERVER_ACCESS_TOKEN_TTL_SECONDS: z.coerce.number().int().min(60).max(3600).default(600),
  OAUTH_SERVER_REFRESH_TOKEN_TTL_SECONDS: z.coerce.number().int().min(3600).default(30 * 86_400),
  OAUTH_SERVER_CLIENT_UNUSED_TTL_SECONDS: z.coerce.number().int().min(60).default(7 * 86_400),
  OAUTH_SERVER_REGISTRATIONS_PER_HOUR: z.coerce.number().int().min(1).default(20),
});

export type AuthorizationServerConfig = {
  /** PUBLIC_URL without a trailing slash. */
  issuer: string;
  accessTokenTtlSeconds: number;
  refreshTokenTtlSeconds: number;
  /** A dynamically registered client no consent has used is deleted after this long. */
  clientUnusedTtlSeconds: number;
  /** Dynamic registrations per client IP per hour. */
  registrationsPerHour: number;
};

export const OAUTH_SCOPE = "mcp";

export function authorizationServerConfigOf(e: z.infer<typeof ZOAuthServerEnv> & { PUBLIC_URL?: string | undefined; OAUTH_ISSUER?: string | undefined }): AuthorizationServerConfig | null {
  if (e.OAUTH_SERVER === "off" || e.OAUTH_ISSUER || !e.PUBLIC_URL) return null;
  return {
    issuer: e.PUBLIC_URL.replace(/\/+$/, ""),
    accessTokenTtlSeconds: e.OAUTH_SERVER_ACCESS_TOKEN_TTL_SECONDS,
    refreshTokenTtlSeconds: e.OAUTH_SERVER_REFRESH_TOKEN_TTL_SECONDS,
    clientUnusedTtlSeconds: e.OAUTH_SERVER_CLIENT_UNUSED_TTL_SECONDS,
    registrationsPerHour: e.OAUTH_SERVER_REGISTRATIONS_PER_HOUR,
  };
}
