// The seam between the upstream OAuth client (this folder: connections, tokens, refresh, exchange) and the call
// path (the upstream pool and the pipeline's execute step). The call path asks for the credential of one call;
// this folder answers with a bearer token it keeps fresh, or says the user must connect first. Issue 22.

/** How a server's calls authenticate to it. `none`: static headers only (`${secret:…}` references), as before. */
export type UpstreamAuthMode = "none" | "shared" | "per_user" | "token_exchange" | "client_credentials";

/** Who a call is made for, as the call path knows it. */
export type CallIdentity = {
  serverId: string;
  /** The console user behind the agent session (null for sessions of no user). */
  userId: string | null;
  agentSessionId: string;
  /**
   * The agent's own access token when it signed in through an external identity provider (enterprise mode),
   * the subject token of `token_exchange`; absent otherwise.
   */
  subjectToken?: string | undefined;
};

/** Which credential a call used: recorded on the call's audit event (never the token itself). */
export type CredentialRef = {
  mode: Exclude<UpstreamAuthMode, "none">;
  /** The stored connection used (shared, per_user), null for exchange and client credentials. */
  connectionId: string | null;
  /** Whose connection (per_user, token_exchange), null for a service credential. */
  userId: string | null;
};

export type UpstreamCredential =
  | { kind: "none" }
  | {
      kind: "bearer";
      accessToken: string;
      /** A stable key of this credential (e.g. the connection id): one upstream MCP session per key. */
      cacheKey: string;
      ref: CredentialRef;
    };

export interface UpstreamCredentials {
  /**
   * The credential for one call. Throws UpstreamAuthRequiredError (code `upstream_auth_required`, with the URL
   * where the user connects) when the call's user has no usable connection; never another user's token.
   */
  forCall(identity: CallIdentity, signal?: AbortSignal): Promise<UpstreamCredential>;
  /**
   * The credential the gateway lists a server's definitions with (registration, refresh, reconnect): the service
   * credential (shared, client_credentials), else a connection of an admin (per_user, token_exchange). Throws
   * UpstreamAuthRequiredError when there is none yet; the server then waits in status `auth_required`.
   */
  forDiscovery(serverId: string, signal?: AbortSignal): Promise<UpstreamCredential>;
  /**
   * The upstream answered 401 to `credential`: refresh once (one refresh across processes) and return the new
   * credential, or mark the connection `needs_reconnect` and throw UpstreamAuthRequiredError.
   */
  rejected(identity: CallIdentity, credential: UpstreamCredential & { kind: "bearer" }, signal?: AbortSignal): Promise<UpstreamCredential>;
  /**
   * The upstream answered 403 `insufficient_scope` naming `scopes` (MCP scope step-up): the connection is marked
   * `needs_reconnect` and remembers the union of its scopes and these, which its next connect asks for. Always
   * throws: UpstreamAuthRequiredError (needs_reconnect), or upstream_auth_failed for a credential no user connects.
   * Optional (added by upauth-core): a call path that does not read 403 challenges does not call it.
   */
  insufficientScope?(identity: CallIdentity, credential: UpstreamCredential & { kind: "bearer" }, scopes: string[]): Promise<never>;
}
