// The paths the embedded authorization server answers on `portcullis start`'s own HTTP server (not Next.js):
// its endpoints under /oauth, and its metadata at the well-known paths of the issuer (PUBLIC_URL).
export const OAUTH_PREFIX = "/oauth";
export const AS_METADATA_PATHS = ["/.well-known/oauth-authorization-server", "/.well-known/openid-configuration"] as const;

const pathOf = (url: string) => url.split("?", 1)[0]!;

/** Portcullis as a client of upstream servers (its redirect URI, its metadata document): answered by the console. */
const UPSTREAM_CLIENT_PREFIX = `${OAUTH_PREFIX}/upstream`;

export function isAuthorizationServerPath(url: string): boolean {
  const p = pathOf(url);
  if (p === UPSTREAM_CLIENT_PREFIX || p.startsWith(`${UPSTREAM_CLIENT_PREFIX}/`) || p.startsWith(`${UPSTREAM_CLIENT_PREFIX}-`)) return false;
  return p === OAUTH_PREFIX || p.startsWith(`${OAUTH_PREFIX}/`) || (AS_METADATA_PATHS as readonly string[]).includes(p);
}

/** The console page where a signed-in user decides an interaction (an App Router page). */
export const consentPagePath = (uid: string) => `/authorize/${encodeURIComponent(uid)}`;
/** Where the console sends the browser once the decision is stored: the provider finishes the interaction. */
export const interactionFinishPath = (uid: string) => `${OAUTH_PREFIX}/interaction/${encodeURIComponent(uid)}/finish`;
