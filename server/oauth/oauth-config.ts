// Enterprise mode: an external OpenID provider (Keycloak, Okta, Entra, …) is the authorization server for
// agents, and the MCP endpoints are OAuth protected resources (RFC 9728). Parsed from the environment by
// config.ts; null when OAUTH_ISSUER is unset (then only pcs_ tokens are taken, as before).
import { z } from "zod";
import { parseScopeTools, type ScopeTools } from "./scope-tools";

export const ZOAuthEnv = z.object({
  OAUTH_ISSUER: z.url({ protocol: /^https?$/ }).optional(),
  OAUTH_AUDIENCE: z.string().trim().min(1).optional(),
  OAUTH_REQUIRED_SCOPES: z.string().default(""),
  OAUTH_SCOPE_TOOLS: z.string().default(""),
  OAUTH_USER_CLAIM: z.string().trim().min(1).default("email"),
  OAUTH_DEFAULT_ROLE: z.enum(["USER", "APPROVER", "ADMIN"]).default("USER"),
  OAUTH_ALGORITHMS: z.string().default("RS256,RS384,RS512,PS256,PS384,PS512,ES256,ES384,ES512,EdDSA"),
  OAUTH_CLOCK_TOLERANCE_SECONDS: z.coerce.number().int().min(0).max(300).default(30),
});

/** Asymmetric algorithms only: `none` and HS* (a shared secret, which a public JWKS must never act as) are refused. */
const ASYMMETRIC = /^(RS|PS|ES)(256|384|512)$|^ES256K$|^EdDSA$|^Ed25519$/;

export type OAuthConfig = {
  issuer: string;
  /** A fixed audience for every endpoint; null: the endpoint's own URL (RFC 8707). */
  audience: string | null;
  requiredScopes: string[];
  /** Scope → tool patterns; empty: scopes do not narrow the tools. */
  scopeTools: ScopeTools;
  /** The claim naming the user: an e-mail address, or another value (then `<value>@<issuer host>`). */
  userClaim: string;
  defaultRole: "USER" | "APPROVER" | "ADMIN";
  algorithms: string[];
  clockToleranceSeconds: number;
};

const words = (s: string) => s.split(/[\s,]+/).filter(Boolean);

/** Throws with a message naming the variable when a value is unusable. */
export function oauthConfigOf(e: z.infer<typeof ZOAuthEnv>): OAuthConfig | null {
  if (!e.OAUTH_ISSUER) return null;
  const algorithms = words(e.OAUTH_ALGORITHMS);
  const bad = algorithms.filter((a) => !ASYMMETRIC.test(a));
  if (bad.length || !algorithms.length) throw new Error(`OAUTH_ALGORITHMS: only asymmetric JWS algorithms are allowed (refused: ${bad.join(", ") || "an empty list"})`);
  return {
    issuer: e.OAUTH_ISSUER,
    audience: e.OAUTH_AUDIENCE ?? null,
    requiredScopes: words(e.OAUTH_REQUIRED_SCOPES),
    scopeTools: parseScopeTools(e.OAUTH_SCOPE_TOOLS),
    userClaim: e.OAUTH_USER_CLAIM,
    defaultRole: e.OAUTH_DEFAULT_ROLE,
    algorithms,
    clockToleranceSeconds: e.OAUTH_CLOCK_TOLERANCE_SECONDS,
  };
}
