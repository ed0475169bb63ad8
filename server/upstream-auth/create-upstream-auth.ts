// The upstream OAuth client assembled from its parts (built once per gateway process by createGateway): the
// credentials the call path asks, and the operations the REST routes and the callback adapt.
import type { TPutServerAuth } from "../../lib/upstream-auth-schemas";
import type { RequestContext } from "../context";
import type { ChangeBus } from "../events/change-bus";
import { createAuthModes } from "./auth-modes";
import { createUpstreamCredentials } from "./create-upstream-credentials";
import { disconnectConnection, disconnectUser } from "./disconnect-connection";
import { finishUpstreamAuthorization, type CallbackParams } from "./finish-authorization";
import { listMyConnections, listServerConnections } from "./list-connections";
import { createTokenRefresher } from "./refresh-connection";
import { getServerAuth, putServerAuth } from "./server-auth-settings";
import { createServiceTokens } from "./service-tokens";
import { startUpstreamAuthorization } from "./start-authorization";
import { resolveServerId, type UpstreamAuthDeps } from "./upstream-auth-deps";
import { upstreamClientDocument } from "./upstream-client-document";

export function createUpstreamAuth(deps: UpstreamAuthDeps & { remember: (value: string) => Promise<void>; bus: ChangeBus }) {
  const modes = createAuthModes(deps.db, deps.bus, deps.logger);
  const refresher = createTokenRefresher(deps);
  const service = createServiceTokens(deps);
  const credentials = createUpstreamCredentials(deps, refresher, service);
  return {
    credentials,
    /** Each server's auth mode for the pool (kept current from the change bus). */
    modes,
    clientDocument: () => upstreamClientDocument(deps.publicUrl),
    listMine: (userId: string) => listMyConnections(deps.db, userId),
    /** The signed-in user starts connecting their own account (per_user), or an admin the shared one. */
    connect: async (userId: string, server: string) => startUpstreamAuthorization(deps, userId, await resolveServerId(deps.db, server), false),
    connectShared: async (userId: string, server: string) => startUpstreamAuthorization(deps, userId, await resolveServerId(deps.db, server), true),
    /** GET /oauth/upstream/callback for the signed-in user `userId`. */
    callback: (ctx: RequestContext, userId: string, params: CallbackParams) => finishUpstreamAuthorization(deps, ctx, userId, params),
    disconnect: (ctx: RequestContext, connectionId: string) => disconnectConnection(deps, ctx, connectionId),
    disconnectUser: (ctx: RequestContext, userId: string) => disconnectUser(deps, ctx, userId),
    /** `server`: the server's id or slug. */
    serverAuth: async (server: string) => getServerAuth(deps, await resolveServerId(deps.db, server)),
    // Answers once every process has started reloading the modes (heardEverywhere, D68), and each process's calls
    // wait for that reload: the new mode holds from the next call on any process.
    updateServerAuth: async (ctx: RequestContext, server: string, input: TPutServerAuth) => {
      const serverId = await resolveServerId(deps.db, server);
      const out = await deps.bus.heardEverywhere(() => putServerAuth(deps, ctx, serverId, input));
      // This process reads it again in any case (its own bus may not be listening).
      await modes.reload();
      return out;
    },
    serverConnections: async (server: string) => listServerConnections(deps.db, await resolveServerId(deps.db, server)),
  };
}
export type UpstreamAuth = ReturnType<typeof createUpstreamAuth>;
