// A server's upstream OAuth settings (UpstreamServer.authMode + authConfig), parsed at every read: the JSON column
// is written by this folder only, but a row from an older version must not crash a call.
import { z } from "zod";
import type { UpstreamAuthMode } from "./upstream-credentials";

export const UPSTREAM_AUTH_MODES = ["none", "shared", "per_user", "token_exchange", "client_credentials"] as const satisfies readonly UpstreamAuthMode[];
export const ZUpstreamAuthMode = z.enum(UPSTREAM_AUTH_MODES);

export const REGISTRATION_KINDS = ["metadata_document", "dynamic", "pre_registered"] as const;
export type RegistrationKind = (typeof REGISTRATION_KINDS)[number];

export const ZUpstreamAuthConfig = z.object({
  /** The authorization server found by discovery (or the last one tokens came from). */
  issuer: z.string().nullish(),
  registration: z.enum(REGISTRATION_KINDS).nullish(),
  clientId: z.string().nullish(),
  /** Id of the sealed client secret (secret store), for pre-registered and dynamically registered clients. */
  clientSecretId: z.string().nullish(),
  /** The issuer a dynamic registration was made at: a registration is only reused there. */
  registeredAt: z.string().nullish(),
  scopes: z.array(z.string()).default([]),
  /** token_exchange: the audience asked for (default: the upstream's resource). */
  audience: z.string().nullish(),
});
export type UpstreamAuthConfig = z.infer<typeof ZUpstreamAuthConfig>;

export function readAuthConfig(json: unknown): UpstreamAuthConfig {
  const parsed = ZUpstreamAuthConfig.safeParse(json ?? {});
  return parsed.success ? parsed.data : ZUpstreamAuthConfig.parse({});
}

export function readAuthMode(value: string): UpstreamAuthMode {
  const parsed = ZUpstreamAuthMode.safeParse(value);
  return parsed.success ? parsed.data : "none";
}
