// How the console names upstream-auth values and reads the Connections page's URL: one map per enum, and the
// pure decisions the page makes (which server `?server=` points at, what a callback's error code means).
import type {
  TConnectionStatus,
  TMyConnections,
  TUpstreamAuthMode,
  TUpstreamConnection,
} from "@/lib/upstream-connections";

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
  access_denied: "The sign-in was cancelled or refused at the provider.",
  invalid_state: "The sign-in took too long or was started elsewhere. Connect again.",
  state_expired: "The sign-in took too long. Connect again.",
  issuer_mismatch: "The provider that answered is not the one the sign-in started with, so its answer was refused.",
  invalid_grant: "The provider refused to issue tokens for this sign-in. Connect again.",
  server_error: "The provider had a problem signing you in. Try again later.",
  temporarily_unavailable: "The provider is busy. Try again in a moment.",
};

export function callbackErrorMessage(code: string): string {
  return CALLBACK_ERRORS[code] ?? `The connection could not be made (${code}).`;
}

/** What `?server=<slug>` (the link in an agent's `upstream_auth_required` error) points at on the page. */
export type ServerFocus =
  | { kind: "connect"; serverId: string; serverName: string }
  | { kind: "reconnect"; connection: TUpstreamConnection }
  | { kind: "connected"; connection: TUpstreamConnection }
  | { kind: "unavailable"; serverSlug: string };

export function serverFocus(data: TMyConnections, serverSlug: string): ServerFocus {
  const connection = data.connections.find((c) => c.serverSlug === serverSlug);
  if (connection) return { kind: connection.status === "needs_reconnect" ? "reconnect" : "connected", connection };
  const available = data.available.find((s) => s.serverSlug === serverSlug);
  if (available) return { kind: "connect", serverId: available.serverId, serverName: available.serverName };
  return { kind: "unavailable", serverSlug };
}

/** Connections needing the user first: those to reconnect, then by server name. */
export function sortConnections(connections: readonly TUpstreamConnection[]): TUpstreamConnection[] {
  const rank = (c: TUpstreamConnection) => (c.status === "needs_reconnect" ? 0 : 1);
  return [...connections].sort((a, b) => rank(a) - rank(b) || a.serverName.localeCompare(b.serverName));
}

/** The provider as people know it: the issuer's host (the full URL is in the title). */
export function issuerHost(issuer: string): string {
  try {
    return new URL(issuer).host || issuer;
  } catch {
    return issuer;
  }
}
