// A call whose user must connect their own account to the upstream first (or reconnect: the provider refused the
// refresh). The call path turns it into the tool error `upstream_auth_required` carrying `connectUrl`, and into a
// URL elicitation for clients that declared one. Never answered with another user's token.
export class UpstreamAuthRequiredError extends Error {
  readonly code = "upstream_auth_required" as const;
  constructor(
    readonly serverSlug: string,
    /** Where the user connects (the console's Connections page for this server, under PUBLIC_URL). */
    readonly connectUrl: string,
    /** `not_connected` (never connected) or `needs_reconnect` (the provider refused the refresh or revoked it). */
    readonly reason: "not_connected" | "needs_reconnect",
  ) {
    super(reason === "needs_reconnect" ? `Reconnect your account to ${serverSlug}: ${connectUrl}` : `Connect your account to ${serverSlug} first: ${connectUrl}`);
    this.name = "UpstreamAuthRequiredError";
  }
}
