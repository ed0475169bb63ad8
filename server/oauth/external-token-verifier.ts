// Enterprise mode's TokenVerifier: JWT access tokens of an external OpenID provider, checked with jose against
// the issuer's published keys (its discovered jwks_uri; jose caches them and refetches on an unknown `kid`).
// Checked: signature with an allowed asymmetric algorithm, `iss`, `aud` (the resource, RFC 8707), `exp`/`nbf`
// with a small tolerance, and the required scopes. Every refusal is `invalid_token` with the reason.
import { createRemoteJWKSet, errors, jwtVerify, type JWTPayload } from "jose";
import { GatewayError } from "../errors";
import { fetchIssuerMetadata, DISCOVERY_TIMEOUT_MS } from "./fetch-issuer-metadata";
import type { OAuthConfig } from "./oauth-config";
import type { TokenVerifier, VerifiedToken } from "./token-verifier";

const invalid = (message: string) => new GatewayError("invalid_token", message);
const unavailable = (err: unknown) =>
  new GatewayError("authorization_server_unavailable", `The authorization server's keys could not be loaded: ${(err as Error).message}`, undefined, { cause: err, retryAfterSeconds: 30 });

export function scopesOf(payload: JWTPayload): string[] {
  const raw = payload.scope ?? payload.scp;
  if (typeof raw === "string") return raw.split(" ").filter(Boolean);
  return Array.isArray(raw) ? raw.filter((s): s is string => typeof s === "string") : [];
}

export function createExternalTokenVerifier(config: OAuthConfig): TokenVerifier {
  let keys: Promise<ReturnType<typeof createRemoteJWKSet>> | undefined;
  // Discovery once per process; a failure is retried by the next request rather than remembered.
  const jwks = () =>
    (keys ??= fetchIssuerMetadata(config.issuer).then(
      (m) => createRemoteJWKSet(new URL(m.jwks_uri), { timeoutDuration: DISCOVERY_TIMEOUT_MS, cooldownDuration: 30_000 }),
      (err: unknown) => {
        keys = undefined;
        throw err;
      },
    ));

  return {
    async verify(token, resource): Promise<VerifiedToken> {
      if (token.split(".").length !== 3) throw invalid("The bearer token is neither an agent session token (pcs_…) nor a JWT access token.");
      let keySet: Awaited<ReturnType<typeof jwks>>;
      try {
        keySet = await jwks();
      } catch (err) {
        throw unavailable(err);
      }
      let payload: JWTPayload;
      try {
        ({ payload } = await jwtVerify(token, keySet, {
          issuer: config.issuer,
          audience: config.audience ?? [resource, resource.endsWith("/") ? resource.slice(0, -1) : `${resource}/`],
          algorithms: config.algorithms,
          clockTolerance: config.clockToleranceSeconds,
          requiredClaims: ["exp"],
        }));
      } catch (err) {
        // The provider's keys could not be fetched: not the token's fault, and not an answer to give it.
        if (err instanceof errors.JWKSTimeout || !(err instanceof errors.JOSEError)) throw unavailable(err);
        throw invalid(refusalOf(err, resource));
      }
      const scopes = scopesOf(payload);
      const missing = config.requiredScopes.filter((s) => !scopes.includes(s));
      if (missing.length) throw invalid(`The access token lacks the required scope(s): ${missing.join(" ")}.`);
      const userKey = payload[config.userClaim];
      if (typeof userKey !== "string" || !userKey) throw invalid(`The access token has no "${config.userClaim}" claim naming its user.`);
      const clientId = [payload.azp, payload.client_id, payload.appid].find((v): v is string => typeof v === "string" && v !== "") ?? "unknown";
      return { issuer: config.issuer, userKey, clientId, scopes, issuedAt: payload.iat ?? Math.floor(Date.now() / 1000) };
    },
  };
}

export function refusalOf(err: errors.JOSEError, resource: string): string {
  if (err instanceof errors.JWTExpired) return "The access token has expired.";
  if (err instanceof errors.JWTClaimValidationFailed) {
    if (err.claim === "aud") return `The access token is for another resource (its audience is not ${resource}).`;
    if (err.claim === "iss") return "The access token was issued by another authorization server.";
    return `The access token's "${err.claim}" claim is not acceptable (${err.reason}).`;
  }
  if (err instanceof errors.JOSEAlgNotAllowed) return "The access token is signed with an algorithm that is not allowed.";
  if (err instanceof errors.JWSSignatureVerificationFailed || err instanceof errors.JWKSNoMatchingKey) return "The access token's signature does not verify with the authorization server's keys.";
  return `The access token is not valid (${err.code}).`;
}
