// Starts connecting an account (a user's own, or the shared one by an admin): discovery, the client identity,
// PKCE S256 with a `resource` indicator (RFC 8707), and a single-use state bound to the user who started it.
// Returns the provider's authorization URL; the browser goes there and comes back to the callback.
import { createHash, randomBytes } from "node:crypto";
import { startAuthorization } from "@modelcontextprotocol/sdk/client/auth.js";
import { GatewayError } from "../errors";
import { clientIdentity } from "./client-identity";
import { discoverAuthorizationServer } from "./discover-authorization-server";
import { AUTHORIZATION_TTL_MS, httpUrlOf, loadAuthServer, type UpstreamAuthDeps } from "./upstream-auth-deps";
import { upstreamRedirectUri } from "./upstream-client-document";

export const stateHashOf = (state: string) => createHash("sha256").update(state).digest("hex");

export async function startUpstreamAuthorization(deps: UpstreamAuthDeps, userId: string, serverId: string, shared: boolean): Promise<{ authorizationUrl: string }> {
  const server = await loadAuthServer(deps.db, serverId);
  const wanted = shared ? "shared" : "per_user";
  if (server.mode !== wanted) throw new GatewayError("upstream_auth_mode_mismatch", `The server ${server.slug} is in mode ${server.mode}: ${shared ? "a shared connection needs mode shared" : "users connect their own accounts in mode per_user"}.`);
  const url = httpUrlOf(server);
  // Looked up afresh: connecting is what a user does when the server moved to another authorization server.
  const as = await discoverAuthorizationServer(url, deps.fetchFn, true);
  const { registration, client } = await clientIdentity(deps, serverId, as);
  // A reconnect asks for what the connection held or was asked for since (scope step-up) besides the defaults.
  const previous = await deps.db.upstreamConnection.findUnique({ where: { serverId_owner: { serverId, owner: shared ? "shared" : userId } }, select: { scopes: true } });
  const scopes = [...new Set([...(server.config.scopes.length ? server.config.scopes : as.scopes), ...(previous?.scopes ?? [])])];
  const state = randomBytes(32).toString("base64url");
  const redirectUri = upstreamRedirectUri(deps.publicUrl);
  const { authorizationUrl, codeVerifier } = await startAuthorization(as.issuer, {
    metadata: as.metadata,
    clientInformation: client,
    redirectUrl: redirectUri,
    state,
    resource: as.resource,
    ...(scopes.length && { scope: scopes.join(" ") }),
  });
  await deps.db.$transaction(async (tx) => {
    // Authorizations never finished (the user closed the tab) go with their sealed verifiers, a few per start.
    const stale = await tx.upstreamAuthorization.findMany({ where: { expiresAt: { lt: new Date() } }, select: { stateHash: true, verifierSecretId: true }, take: 100 });
    if (stale.length) {
      await tx.upstreamAuthorization.deleteMany({ where: { stateHash: { in: stale.map((r) => r.stateHash) } } });
      await deps.secrets.drop(tx, stale.map((r) => r.verifierSecretId));
    }
    const verifierSecretId = await deps.secrets.seal(tx, `upstream:pkce:${stateHashOf(state).slice(0, 32)}`, codeVerifier);
    await tx.upstreamAuthorization.create({
      data: { stateHash: stateHashOf(state), serverId, userId, shared, issuer: as.issuer, clientId: client.client_id, registration, redirectUri, resource: as.resource, scopes, verifierSecretId, expiresAt: new Date(Date.now() + AUTHORIZATION_TTL_MS) },
    });
  });
  return { authorizationUrl: authorizationUrl.href };
}
