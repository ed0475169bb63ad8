// A small UpstreamCredentials for the call path's tests (the real one is server/upstream-auth's): each
// "connection" is a client of the real provider fixture, so every token is a real JWT the protected upstream
// verifies. Users connect (per_user) by being given a client; `shared` is the service client; discovery of a
// per_user server uses the admin's client. Counts what the call path asked, for tests to check.
import type { Db } from "../db/client";
import { UpstreamAuthRequiredError } from "../upstream-auth/upstream-auth-required-error";
import type { CallIdentity, UpstreamAuthMode, UpstreamCredential, UpstreamCredentials } from "../upstream-auth/upstream-credentials";
import { claimsOf, type ProtectedUpstream } from "./protected-upstream";

type Bearer = UpstreamCredential & { kind: "bearer" };

export type FixtureCredentials = UpstreamCredentials & {
  /** Connect `userId`'s account as the provider client `clientId` (undefined: disconnect). */
  connect(userId: string, clientId: string | undefined): void;
  asked: { forCall: CallIdentity[]; rejected: { identity: CallIdentity; token: string }[]; forDiscovery: number };
  /** Servers (by slug) whose discovery credential does not exist yet: forDiscovery says so until released. */
  noDiscovery: Set<string>;
  /** Users whose refresh the provider refuses: `rejected` marks them needs_reconnect. */
  refreshRefused: Set<string>;
  /** The auth mode of a server, by slug (the pool's authModeOf). */
  modeOf: (server: { slug: string }) => UpstreamAuthMode | undefined;
};

export function fixtureCredentials(
  db: Db,
  up: ProtectedUpstream,
  opts: { modes: Record<string, UpstreamAuthMode>; sharedClient: string; adminClient: string; connectUrl: (slug: string) => string },
): FixtureCredentials {
  const connections = new Map<string, string>(); // userId → provider client
  const tokens = new Map<string, string>(); // provider client → its current token
  const asked: FixtureCredentials["asked"] = { forCall: [], rejected: [], forDiscovery: 0 };
  const noDiscovery = new Set<string>();
  const refreshRefused = new Set<string>();
  const slugOf = async (serverId: string) => (await db.upstreamServer.findUniqueOrThrow({ where: { id: serverId }, select: { slug: true } })).slug;
  const current = async (clientId: string, fresh = false) => {
    if (fresh || !tokens.has(clientId)) tokens.set(clientId, await up.token(clientId));
    return tokens.get(clientId)!;
  };

  async function credentialOf(identity: CallIdentity, fresh = false): Promise<Bearer> {
    const slug = await slugOf(identity.serverId);
    const mode = opts.modes[slug] ?? "none";
    if (mode === "none") throw new Error(`fixture credentials asked for ${slug}, a server in mode none`);
    if (mode === "shared" || mode === "client_credentials") {
      const ref = { mode, connectionId: mode === "shared" ? `conn-${opts.sharedClient}` : null, userId: null };
      return { kind: "bearer", accessToken: await current(opts.sharedClient, fresh), cacheKey: `service:${slug}`, ref };
    }
    if (mode === "token_exchange") {
      // The "exchange": the provider client the agent's own token names gets a token for the upstream.
      if (!identity.subjectToken) throw new UpstreamAuthRequiredError(slug, opts.connectUrl(slug), "not_connected");
      const subject = claimsOf(identity.subjectToken).client_id;
      return { kind: "bearer", accessToken: await current(subject, fresh), cacheKey: `exchange:${subject}`, ref: { mode, connectionId: null, userId: identity.userId } };
    }
    const clientId = identity.userId ? connections.get(identity.userId) : undefined;
    if (!clientId) throw new UpstreamAuthRequiredError(slug, opts.connectUrl(slug), "not_connected");
    return { kind: "bearer", accessToken: await current(clientId, fresh), cacheKey: `conn-${clientId}`, ref: { mode, connectionId: `conn-${clientId}`, userId: identity.userId } };
  }

  return {
    asked,
    noDiscovery,
    refreshRefused,
    connect(userId, clientId) {
      if (clientId) connections.set(userId, clientId);
      else connections.delete(userId);
    },
    modeOf: ({ slug }) => opts.modes[slug],
    forCall(identity) {
      asked.forCall.push(identity);
      return credentialOf(identity);
    },
    async forDiscovery(serverId) {
      asked.forDiscovery++;
      const slug = await slugOf(serverId);
      const mode = opts.modes[slug];
      if (!mode || mode === "none") throw new Error(`fixture credentials asked for ${slug}, a server in mode none`);
      if (noDiscovery.has(slug)) throw new UpstreamAuthRequiredError(slug, opts.connectUrl(slug), "not_connected");
      const clientId = mode === "per_user" || mode === "token_exchange" ? opts.adminClient : opts.sharedClient;
      return { kind: "bearer", accessToken: await current(clientId), cacheKey: `discovery:${slug}`, ref: { mode, connectionId: `conn-${clientId}`, userId: null } };
    },
    async rejected(identity, credential) {
      asked.rejected.push({ identity, token: credential.accessToken });
      if (identity.userId && refreshRefused.has(identity.userId)) throw new UpstreamAuthRequiredError(await slugOf(identity.serverId), opts.connectUrl(await slugOf(identity.serverId)), "needs_reconnect");
      return credentialOf(identity, true);
    },
  };
}
