// The seam between the protected resource and whoever issues its access tokens: the external IdP today
// (external-token-verifier.ts), the embedded authorization server later. A verifier checks a token for one
// resource and says who it is for; it never decides what the caller may do (oauth-principal.ts does).
export type VerifiedToken = {
  issuer: string;
  /** The user's key: the configured claim's value. */
  userKey: string;
  /** The client the token was issued to (azp / client_id), or "unknown" when the token names none. */
  clientId: string;
  scopes: string[];
  /** When it was issued (seconds since the epoch); a session revoked later refuses it. */
  issuedAt: number;
  /** The agent session the token is bound to (the embedded authorization server's tokens); absent otherwise. */
  sessionId?: string;
};

export interface TokenVerifier {
  /** Throws `invalid_token` (GatewayError) saying why the token is refused for `resource`. */
  verify(token: string, resource: string): Promise<VerifiedToken>;
}
