// The embedded authorization server as the gateway exposes it (createGateway's `oauthServer`): the HTTP
// handler for `portcullis start`, the console's consent operations, and the admin's key rotation. The secrets
// key (SECRETS_KEY or DATA_DIR/secrets.key) seals the signing keys and binds cookies and consent tokens.
import type { RequestContext } from "../../context";
import type { Db, User } from "../../db/client";
import type { Logger } from "../../logger";
import { loadOrCreateKeyFile, secretKey, type SecretKey } from "../../secrets/secret-crypto";
import type { AuthorizationServerConfig } from "./authorization-server-config";
import { ClientMetadataError } from "../client-metadata-error";
import { loadConsentRequest, type ConsentRequest, type FindUrlClient } from "./consent-request";
import { createAuthorizationServer, type AuthorizationServer, type AuthorizationServerDeps } from "./create-authorization-server";
import type { TConsentDecision } from "../../../lib/oauth-schemas";
import { decideConsent, type ConsentRequestSource } from "./decide-consent";
import { rotateSigningKey } from "./signing-keys";
import type { TOAuthClient } from "../../../lib/oauth-schemas";
import { listOAuthClients } from "./list-oauth-clients";
import { blockOAuthClient, unblockOAuthClient, type BlockOutcome } from "./block-oauth-client";

export type OAuthServerService = {
  server: AuthorizationServer;
  consent: {
    load(uid: string, user: User): Promise<ConsentRequest>;
    decide(ctx: RequestContext, user: User, uid: string, input: TConsentDecision, src: Omit<ConsentRequestSource, "publicOrigin">): Promise<{ redirectTo: string; sessionId?: string }>;
  };
  /** Admin action: a new signing key; the old one stays published until its tokens have expired. */
  rotateKeys(ctx: RequestContext): Promise<{ kid: string; retired: string[] }>;
  /** Admin actions: the clients with their sessions and blocks; a block refuses the client and revokes its sessions. */
  clients: {
    list(): Promise<TOAuthClient[]>;
    block(ctx: RequestContext, clientId: string, reason?: string): Promise<BlockOutcome>;
    unblock(ctx: RequestContext, clientId: string): Promise<BlockOutcome>;
  };
};

export type OAuthServerServiceDeps = {
  db: Db;
  logger: Logger;
  config: AuthorizationServerConfig;
  dataDir: string;
  key?: Buffer | undefined;
  resolveClientDocument?: AuthorizationServerDeps["resolveClientDocument"];
  /** The change bus's heardEverywhere: a block answers once every process has dropped the sessions it revoked. */
  heardEverywhere<R>(fn: () => Promise<R>): Promise<R>;
};

export function createOAuthServerService(deps: OAuthServerServiceDeps): OAuthServerService {
  const { db, config } = deps;
  let key: Promise<SecretKey> | undefined;
  const secret = () => {
    key ??= (deps.key ? Promise.resolve(deps.key) : loadOrCreateKeyFile(deps.dataDir)).then(secretKey);
    key.catch(() => (key = undefined));
    return key;
  };
  const publicOrigin = new URL(config.issuer).origin;
  // The consent page's view of a client known by its metadata document (cached since the authorization request).
  const resolve = deps.resolveClientDocument;
  const findUrlClient: FindUrlClient | undefined = resolve && (async (clientId) => {
    const outcome = await resolve(clientId);
    return outcome instanceof ClientMetadataError ? undefined : outcome;
  });
  return {
    server: createAuthorizationServer({ db, logger: deps.logger, config, secretKey: secret, resolveClientDocument: deps.resolveClientDocument }),
    consent: {
      load: async (uid, user) => loadConsentRequest(db, await secret(), uid, user.id, findUrlClient),
      decide: async (ctx, user, uid, input, src) => decideConsent(db, await secret(), ctx, user, uid, input, { ...src, publicOrigin }),
    },
    rotateKeys: async (ctx) => rotateSigningKey(db, ctx, await secret()),
    clients: {
      list: () => listOAuthClients(db),
      // Its revoked sessions' tokens are refused by every process from the next call on, as a revoke on the Agents page.
      block: (ctx, clientId, reason) => deps.heardEverywhere(() => blockOAuthClient(db, ctx, clientId, reason)),
      unblock: (ctx, clientId) => unblockOAuthClient(db, ctx, clientId),
    },
  };
}
