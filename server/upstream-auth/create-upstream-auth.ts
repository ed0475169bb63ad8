// The upstream OAuth client assembled from its parts (built once per gateway process by createGateway): the
// credentials the call path asks, and the operations the REST routes and the callback adapt.
import type { TPutServerAuth } from "../../lib/upstream-auth-schemas";
import type { RequestContext } from "../context";
import { createUpstreamCredentials } from "./create-upstream-credentials";
import { disconnectConnection, disconnectUser } from "./disconnect-connection";
import { finishUpstreamAuthorization, type CallbackParams } from "./finish-authorization";
import { listMyConnections, listServerConnections } from "./list-connections";
import { createTokenRefresher } from "./refresh-connection";
import { getServerAuth, putServerAuth } from "./server-auth-settings";
import { createServiceTokens } from "./service-tokens";
import { startUpstreamAuthorization } from "./start-authorization";
import type { UpstreamAuthDeps } from "./upstream-auth-deps";
import { upstreamClientDocument } from "./upstream-client-document";

type UserContext = RequestContext & { actor: { type: "user"; userId: string } };

export function createUpstreamAuth(deps: UpstreamAuthDeps & { remember: (value: string) => Promise<void> }) {
  const refresher = createTokenRefresher(deps);
  const service = createServiceTokens(deps);
  const credentials = createUpstreamCredentials(deps, refresher, service);
  return {
    credentials,
    clientDocument: () => upstreamClientDocument(deps.publicUrl),
    listMine: (userId: string) => listMyConnections(deps.db, userId),
    connect: (ctx: UserContext, serverId: string) => startUpstreamAuthorization(deps, ctx.actor.userId, serverId, false),
    connectShared: (ctx: UserContext, serverId: string) => startUpstreamAuthorization(deps, ctx.actor.userId, serverId, true),
    callback: (ctx: UserContext, params: CallbackParams) => finishUpstreamAuthorization(deps, ctx, params),
    disconnect: (ctx: RequestContext, connectionId: string) => disconnectConnection(deps, ctx, connectionId),
    disconnectUser: (ctx: RequestContext, userId: string) => disconnectUser(deps, ctx, userId),
    serverAuth: (serverId: string) => getServerAuth(deps, serverId),
    updateServerAuth: (ctx: RequestContext, serverId: string, input: TPutServerAuth) => putServerAuth(deps, ctx, serverId, input),
    serverConnections: (serverId: string) => listServerConnections(deps.db, serverId),
  };
}
export type UpstreamAuth = ReturnType<typeof createUpstreamAuth>;
