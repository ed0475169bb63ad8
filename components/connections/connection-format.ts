// How the console names upstream-auth values and reads the Connections page's URL: one map per enum, and the
// pure decisions the page makes (which server `?server=` points at, what a callback's error code means).
import type { TConnectionStatus, TConnectionList, TUpstreamAuthMode, TConnection } from "./types";

export const AUTH_MODE_LABEL: Record<TUpstreamAuthMode, string> = {
  none: "None (static headers)",
  shared: "Shared account",
  per_user: "Each user's own account",
  token_exchange: "Token exchange",
  client_credentials: "Client credentials",
};

export const AUTH_MODE_HINT: Record<TUpstreamAuthMode, string> = {
  none: "Calls carry only the server's own headers (which may reference secrets).",
  shared: "An admin connects one account (a service account) once; every permitted call uses it.",
  per_user:
    "Each user connects their own account on the Connections page; their agents' calls use it, and a call without a connection is refused with a link to connect.",
  token_exchange:
    "The agent's own sign-in token is exchanged at the provider for one meant for this server (RFC 8693).",
  client_credentials: "Portcullis signs in as itself (machine to machine); no user connects.",
};

export const CONNECTION_STATUS_LABEL: Record<TConnectionStatus, string> = {
  connected: "Connected",
  needs_reconnect: "Reconnect needed",
};

/** Messages for the codes the OAuth callback returns with (`/connections?error=<code>`); others are shown as is. */
const CALLBACK_ERRORS: Record<string, string> = {
  upstream_auth_denied: "The sign-in was cancelled or refused at the provider.",
  upstream_auth_state_invalid: "This sign-in is unknown, was already used or took too long. Connect again.",
  upstream_auth_issuer_mismatch:
    "The answer came from another provider than the one the sign-in started at, so it was refused.",
  upstream_auth_failed:
    "The provider did not complete the sign-in. Try again, or ask an admin to check the server's authentication settings.",
  bad_request: "The provider's answer was incomplete. Connect again.",
  internal: "Something went wrong in Portcullis. Try again; if it persists, an admin can look in the logs.",
};

export function callbackErrorMessage(code: string): string {
  return CALLBACK_ERRORS[code] ?? `The connection could not be made (${code}).`;
}

/** What `?server=<slug>` (the link in an agent's `upstream_auth_required` error) points at on the page. */
export type ServerFocus =
  | { kind: "connect"; serverId: string; serverName: string }
  | { kind: "reconnect"; connection: TConnection }
  | { kind: "connected"; connection: TConnection }
  | { kind: "unavailable"; serverSlug: string };

export function serverFocus(data: TConnectionList, serverSlug: string): ServerFocus {
  const connection = data.connections.find((c) => c.serverSlug === serverSlug);
  if (connection) return { kind: connection.status === "needs_reconnect" ? "reconnect" : "connected", connection };
  const available = data.available.find((s) => s.serverSlug === serverSlug);
  if (available) return { kind: "connect", serverId: available.serverId, serverName: available.serverName };
  return { kind: "unavailable", serverSlug };
}

/** Connections needing the user first: those to reconnect, then by server name. */
export function sortConnections(connections: readonly TConnection[]): TConnection[] {
  const rank = (c: TConnection) => (c.status === "needs_reconnect" ? 0 : 1);
  return [...connections].sort((a, b) => rank(a) - rank(b) || a.serverName.localeCompare(b.serverName));
}

/** The account a connection acts as; a token that names none (no email, username or subject) is still someone's. */
export const accountLabel = (c: Pick<TConnection, "account">) => c.account ?? "an unnamed account";

/** The provider as people know it: the issuer's host (the full URL is in the title). */
export function issuerHost(issuer: string): string {
  try {
    return new URL(issuer).host || issuer;
  } catch {
    return issuer;
  }
}
