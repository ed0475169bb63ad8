// The resource side of the embedded authorization server: its JWT access tokens are checked with the keys in
// the database (the signing key and the retired keys still published), for issuer, expiry, audience = the
// endpoint's URL exactly, type at+jwt, and the agent session they are bound to (`pcs_sid`).
import { createLocalJWKSet, errors, jwtVerify, type JWTPayload } from "jose";
import type { Db } from "../../db/client";
import { GatewayError } from "../../errors";
import { refusalOf } from "../external-token-verifier";
import type { TokenVerifier, VerifiedToken } from "../token-verifier";
import type { AuthorizationServerConfig } from "./authorization-server-config";
import { publicJwks, SIGNING_ALG } from "./signing-keys";

const invalid = (message: string) => new GatewayError("invalid_token", message);

export function createEmbeddedTokenVerifier(db: Db, config: AuthorizationServerConfig): TokenVerifier {
  let keys: Promise<ReturnType<typeof createLocalJWKSet>> | null = null;
  const load = () => (keys = publicJwks(db, config.accessTokenTtlSeconds).then((jwks) => createLocalJWKSet(jwks)));

  async function verifyWith(token: string, resource: string, reload: boolean): Promise<JWTPayload> {
    const keySet = await (reload || !keys ? load() : keys);
    try {
      return (await jwtVerify(token, keySet, { issuer: config.issuer, audience: resource, algorithms: [SIGNING_ALG], typ: "at+jwt", requiredClaims: ["exp", "iat", "sub", "pcs_sid"] })).payload;
    } catch (err) {
      // A key made by a rotation (here or on another process) after the set was read: read it once more.
      if (err instanceof errors.JWKSNoMatchingKey && !reload) return verifyWith(token, resource, true);
      if (err instanceof errors.JOSEError) throw invalid(refusalOf(err, resource));
      throw err;
    }
  }

  return {
    async verify(token, resource): Promise<VerifiedToken> {
      if (token.split(".").length !== 3) throw invalid("The bearer token is neither an agent session token (pcs_…) nor an access token of this gateway.");
      const payload = await verifyWith(token, resource, false);
      const clientId = typeof payload.client_id === "string" ? payload.client_id : "unknown";
      const scopes = typeof payload.scope === "string" ? payload.scope.split(" ").filter(Boolean) : [];
      return { issuer: config.issuer, userKey: payload.sub!, clientId, scopes, issuedAt: payload.iat!, sessionId: String(payload.pcs_sid) };
    },
  };
}
