// Typed errors with one code → HTTP status map. Normal outcomes are values; faults throw these.
export const ERROR_STATUS = {
  bad_request: 400,
  invalid_json: 400,
  /** A tool name that cannot name any tool (control characters, outside the MCP alphabet, over-long). */
  invalid_tool_name: 400,
  /** A URL path the gateway cannot read: a malformed percent-escape, a NUL, or an over-long segment. */
  invalid_path: 400,
  validation_failed: 422,
  /** A `${secret:NAME}` reference to a secret that does not exist. */
  unknown_secret: 422,
  /** An isolation profile this host cannot run (no bubblewrap, no Docker engine). */
  isolation_unavailable: 422,
  unauthenticated: 401,
  invalid_token: 401,
  forbidden: 403,
  not_found: 404,
  method_not_allowed: 405,
  /** The request line and headers exceed what the HTTP server reads (Node's 16 KB by default). */
  headers_too_large: 431,
  conflict: 409,
  /** A slug the gateway keeps for itself (`portcullis`, its built-in server). */
  slug_reserved: 409,
  /** The built-in server cannot be removed, launched or versioned by hand; its tools' settings can be changed. */
  builtin_server: 409,
  /** Definitions with high-severity poisoning findings: approving them needs an override reason. */
  definitions_blocked: 409,
  /** A secret that upstream servers still reference cannot be deleted. */
  secret_in_use: 409,
  /** A webhook URL that points at a loopback, private, link-local or metadata address (net/outbound-url.ts). */
  outbound_url_refused: 422,
  rate_limited: 429,
  /** No upstream process slot free for a /mcp/s session (per agent session, user, server or process limit). */
  upstream_capacity: 503,
  database_unavailable: 503,
  /** A package server's package (or the version its range asks for) does not exist in the registry. */
  package_not_found: 422,
  /** The package registry could not be reached or answered with an error. */
  package_registry_unreachable: 502,
  /** Installing a package failed (timed out, too large, npm failed, integrity mismatch). */
  package_install_failed: 502,
  /** The tool a package server's ecosystem needs (uv for PyPI) is not installed on this host. */
  package_tool_missing: 422,
  /** An upstream server did not come up (a package server's new version that fails to start). */
  upstream_unavailable: 502,
  /** Enterprise mode: the external OpenID provider's discovery document or keys could not be loaded. */
  authorization_server_unavailable: 503,
  /** OAuth consent: a tool asked for is not one the user holds (consent never widens a user's rights). */
  consent_tools_not_held: 403,
  /** OAuth consent: the decision did not come from the console page of this interaction and user (CSRF). */
  consent_forged: 403,
  /** OAuth consent: an administrator blocked the client (Agents page, OAuth clients). */
  oauth_client_blocked: 403,
  /** OAuth consent: the authorization request is unknown or expired (start again from the application). */
  interaction_expired: 410,
  /** Upstream OAuth (issue 22): a mode other than none on a stdio server (only HTTP servers take bearer tokens). */
  auth_mode_requires_http: 400,
  /** Upstream OAuth: the server's mode does not allow this (connect on a none/client_credentials server, say). */
  upstream_auth_mode_mismatch: 409,
  /** Upstream OAuth: the authorization server could not be discovered or registered with, or refused the grant. */
  upstream_auth_failed: 502,
  /** Upstream OAuth callback: the state is unknown, used, expired, or was started by another user. */
  upstream_auth_state_invalid: 400,
  /** Upstream OAuth callback: `iss` is missing (where the server promised it) or names another issuer (RFC 9207). */
  upstream_auth_issuer_mismatch: 400,
  /** Upstream OAuth callback: the provider answered error= (the user declined, say). */
  upstream_auth_denied: 400,
  /** Virtual servers (issue 23): the name is taken (also the loser of two concurrent creates of one name). */
  virtual_server_name_taken: 409,
  /** Virtual servers: two members would be served under one name (or under a gateway tool's name). */
  virtual_name_collision: 422,
  /** Virtual servers: renamed names, descriptions or instructions with high-severity poisoning findings (needs overrideReason). */
  virtual_server_blocked: 409,
  /** An agent session scoped to a virtual server, used on another MCP endpoint. */
  session_scope_mismatch: 403,
  internal: 500,
} as const;

export type ErrorCode = keyof typeof ERROR_STATUS;

export class GatewayError extends Error {
  override name = "GatewayError";
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly details?: unknown,
    options?: { cause?: unknown; retryAfterSeconds?: number },
  ) {
    super(message, options?.cause === undefined ? undefined : { cause: options.cause });
    this.retryAfterSeconds = options?.retryAfterSeconds;
  }
  readonly retryAfterSeconds: number | undefined;
  get status(): number {
    return ERROR_STATUS[this.code];
  }
}

/** Duck-typed so errors thrown by another bundle's copy of this module are still recognised. */
export function isGatewayError(err: unknown): err is GatewayError {
  return (
    err instanceof GatewayError ||
    (typeof err === "object" && err !== null && (err as { name?: unknown }).name === "GatewayError" && "code" in err)
  );
}

export const notFound = (what: string) => new GatewayError("not_found", `${what} was not found.`);
export const forbidden = (why = "Your role does not allow this.") => new GatewayError("forbidden", why);
