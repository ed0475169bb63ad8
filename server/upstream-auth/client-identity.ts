// Which client Portcullis is at an upstream's authorization server, in this order: the id (and secret) an admin
// entered; the client ID metadata document under PUBLIC_URL when the server supports such documents; a dynamic
// registration (RFC 7591), made once per issuer and kept on the server's auth config (its secret sealed).
import { registerClient } from "@modelcontextprotocol/sdk/client/auth.js";
import type { OAuthClientInformationMixed } from "@modelcontextprotocol/sdk/shared/auth.js";
import type { Db } from "../db/client";
import { GatewayError } from "../errors";
import { publishChange } from "../events/change-bus";
import type { SecretStore } from "../secrets/secret-store";
import { readAuthConfig, type RegistrationKind } from "./auth-config";
import type { AuthorizationServer } from "./discover-authorization-server";
import { upstreamClientDocumentUrl, upstreamClientMetadata } from "./upstream-client-document";

export type ClientIdentity = { registration: RegistrationKind; client: OAuthClientInformationMixed };

export type ClientIdentityDeps = { db: Db; secrets: SecretStore; publicUrl: string; fetchFn?: typeof fetch };

async function withSecret(deps: ClientIdentityDeps, clientId: string, secretId: string | null | undefined): Promise<OAuthClientInformationMixed> {
  const secret = secretId ? await deps.secrets.unseal(secretId) : null;
  return secret ? { client_id: clientId, client_secret: secret } : { client_id: clientId };
}

export async function clientIdentity(deps: ClientIdentityDeps, serverId: string, as: AuthorizationServer): Promise<ClientIdentity> {
  const row = await deps.db.upstreamServer.findUniqueOrThrow({ where: { id: serverId }, select: { authConfig: true } });
  const config = readAuthConfig(row.authConfig);
  if (config.registration === "pre_registered" && config.clientId) return { registration: "pre_registered", client: await withSecret(deps, config.clientId, config.clientSecretId) };
  if (as.metadata.client_id_metadata_document_supported) return { registration: "metadata_document", client: { client_id: upstreamClientDocumentUrl(deps.publicUrl) } };
  if (config.registration === "dynamic" && config.clientId && config.registeredAt === as.issuer) return { registration: "dynamic", client: await withSecret(deps, config.clientId, config.clientSecretId) };
  if (!as.metadata.registration_endpoint) {
    throw new GatewayError("upstream_auth_failed", `${as.issuer} supports neither client ID metadata documents nor dynamic registration: an admin enters a pre-registered client id.`);
  }
  const registered = await registerClient(as.issuer, { metadata: as.metadata, clientMetadata: upstreamClientMetadata(deps.publicUrl), ...(deps.fetchFn && { fetchFn: deps.fetchFn }) }).catch((err: unknown) => {
    throw new GatewayError("upstream_auth_failed", `Dynamic registration at ${as.issuer} failed: ${(err as Error).message}`, undefined, { cause: err });
  });
  await deps.db.$transaction(async (tx) => {
    const current = readAuthConfig((await tx.upstreamServer.findUniqueOrThrow({ where: { id: serverId }, select: { authConfig: true } })).authConfig);
    await deps.secrets.drop(tx, [current.clientSecretId]);
    const clientSecretId = registered.client_secret ? await deps.secrets.seal(tx, `upstream:client:${serverId}:${Date.now().toString(36)}`, registered.client_secret) : null;
    await tx.upstreamServer.update({ where: { id: serverId }, data: { authConfig: { ...current, registration: "dynamic", clientId: registered.client_id, clientSecretId, registeredAt: as.issuer } } });
    await publishChange(tx, { kind: "secrets" });
  });
  return { registration: "dynamic", client: registered };
}
