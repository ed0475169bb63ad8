// The callback of an upstream authorization (GET /oauth/upstream/callback): claims the single-use state for the
// signed-in user who started it, refuses an `iss` that is not the issuer it was started at (RFC 9207), redeems
// the code with the PKCE verifier and the resource indicator, and stores the connection. Every refusal is a
// GatewayError with a stable code; the route turns it into /connections?error=<code>.
import { exchangeAuthorization } from "@modelcontextprotocol/sdk/client/auth.js";
import type { OAuthClientInformationMixed } from "@modelcontextprotocol/sdk/shared/auth.js";
import { recordAudit } from "../audit/record-audit";
import { publishChange } from "../events/change-bus";
import type { RequestContext } from "../context";
import { GatewayError } from "../errors";
import { discoverAuthorizationServer } from "./discover-authorization-server";
import { storeConnection } from "./store-tokens";
import { stateHashOf } from "./start-authorization";
import { httpUrlOf, loadAuthServer, type UpstreamAuthDeps } from "./upstream-auth-deps";

/** Longest value of a callback parameter taken: anything longer is not from a real provider. */
const MAX_PARAM = 4096;

export type CallbackParams = { state?: string | null; code?: string | null; iss?: string | null; error?: string | null };
export type CallbackResult = { serverSlug: string; connectionId: string };

function param(value: string | null | undefined, name: string): string | undefined {
  if (value == null || value === "") return undefined;
  if (value.length > MAX_PARAM) throw new GatewayError("bad_request", `The callback parameter ${name} is too long.`);
  return value;
}

/** The pending authorization, deleted as it is read: a second use of the same state finds nothing. */
async function claimState(deps: UpstreamAuthDeps, userId: string, state: string | undefined) {
  const invalid = () => new GatewayError("upstream_auth_state_invalid", "This authorization is unknown, already used or expired: start connecting again.");
  if (!state) throw invalid();
  const stateHash = stateHashOf(state);
  const row = await deps.db.upstreamAuthorization.findUnique({ where: { stateHash }, include: { server: { select: { slug: true } } } });
  // Another user's state is left alone (not consumed): presenting it must not cancel the owner's authorization.
  if (!row || row.userId !== userId) throw invalid();
  // Unsealed before the transaction, not inside it: unseal reads through the pool, and a second connection asked
  // for while the transaction holds one starved concurrent callbacks past the transaction's timeout. Only the
  // caller whose delete claimed the row gets the verifier.
  const verifier = await deps.secrets.unseal(row.verifierSecretId);
  const claimed = await deps.db.$transaction(async (tx) => {
    const { count } = await tx.upstreamAuthorization.deleteMany({ where: { stateHash } });
    await deps.secrets.drop(tx, [row.verifierSecretId]);
    return count === 1 ? verifier : null;
  });
  if (!claimed || row.expiresAt.getTime() < Date.now()) throw Object.assign(invalid(), { serverSlug: row.server.slug });
  return { row, verifier: claimed };
}

export async function finishUpstreamAuthorization(deps: UpstreamAuthDeps, ctx: RequestContext, userId: string, params: CallbackParams): Promise<CallbackResult> {
  const state = param(params.state, "state");
  const code = param(params.code, "code");
  const iss = param(params.iss, "iss");
  const error = param(params.error, "error");
  const { row, verifier } = await claimState(deps, userId, state);
  const slug = row.server.slug;
  const fail = (code: "upstream_auth_denied" | "upstream_auth_issuer_mismatch" | "upstream_auth_failed" | "bad_request", message: string, cause?: unknown) =>
    Object.assign(new GatewayError(code, message, undefined, cause === undefined ? undefined : { cause }), { serverSlug: slug });
  if (error) throw fail("upstream_auth_denied", `The provider refused the authorization (${error.slice(0, 100)}).`);
  const server = await loadAuthServer(deps.db, row.serverId);
  const as = await discoverAuthorizationServer(httpUrlOf(server), deps.fetchFn);
  // RFC 9207: a server that promises `iss` must send its own; any `iss` sent must be the one the flow started at.
  const issRefused = iss !== undefined ? iss !== row.issuer : as.metadata.authorization_response_iss_parameter_supported === true;
  if (issRefused || as.issuer !== row.issuer) {
    throw fail("upstream_auth_issuer_mismatch", `The authorization response came from ${iss ?? "an unnamed issuer"}, not ${row.issuer}.`);
  }
  if (!code) throw fail("bad_request", "The callback carries no code.");
  const secret = row.registration !== "metadata_document" ? await clientSecretOf(deps, server.config) : null;
  const client: OAuthClientInformationMixed = secret ? { client_id: row.clientId, client_secret: secret } : { client_id: row.clientId };
  const tokens = await exchangeAuthorization(row.issuer, { metadata: as.metadata, clientInformation: client, authorizationCode: code, codeVerifier: verifier, redirectUri: row.redirectUri, ...(row.resource && { resource: row.resource }), ...(deps.fetchFn && { fetchFn: deps.fetchFn }) }).catch(
    (err: unknown) => {
      throw fail("upstream_auth_failed", `${row.issuer} did not redeem the code: ${(err as Error).message}`, err);
    },
  );
  const owner = { serverId: row.serverId, userId: row.shared ? null : row.userId };
  const connection = await deps.db.$transaction(async (tx) => {
    const stored = await storeConnection(tx, deps.secrets, owner, { issuer: row.issuer, clientId: row.clientId, registration: row.registration, scopes: row.scopes }, tokens);
    await recordAudit(tx, ctx, { action: "upstream.connected", category: "security", targetType: "upstream_connection", targetId: stored.id, details: { server: slug, shared: row.shared, issuer: row.issuer } });
    await publishChange(tx, { kind: "upstream_account", serverId: row.serverId });
    return stored;
  });
  await deps.redactionReload();
  return { serverSlug: slug, connectionId: connection.id };
}

async function clientSecretOf(deps: UpstreamAuthDeps, config: { clientSecretId?: string | null | undefined }): Promise<string | null> {
  return config.clientSecretId ? deps.secrets.unseal(config.clientSecretId) : null;
}
