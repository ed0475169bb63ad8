// Composition root: every service of the gateway is built here from explicit dependencies.
import type { TCreateUser, TPageQuery, TUpdateUser } from "../lib/schemas";
import { authenticateApiToken } from "./auth/authenticate-api-token";
import { createLoginLimiter } from "./auth/login-limiter";
import { verifyCredentials } from "./auth/verify-credentials";
import type { Config } from "./config";
import type { RequestContext } from "./context";
import type { Db } from "./db/client";
import { checkHealth } from "./health/check-health";
import type { Logger } from "./logger";
import { createApiToken } from "./tokens/create-api-token";
import { listApiTokens, revokeApiToken } from "./tokens/revoke-api-token";
import { createUser } from "./users/create-user";
import { ensureAdmin } from "./users/ensure-admin";
import { getUserByEmail, listUsers } from "./users/list-users";
import { updateUser } from "./users/update-user";
import { VERSION } from "./version";

export type GatewayDeps = { db: Db; databaseUrl: string; logger: Logger; config: Config };

export function createGateway({ db, databaseUrl, logger, config }: GatewayDeps) {
  const loginLimiter = createLoginLimiter(databaseUrl, config.login);
  return {
    db,
    logger,
    config,
    version: VERSION,
    users: {
      create: (ctx: RequestContext, input: TCreateUser) => createUser(db, ctx, input),
      update: (ctx: RequestContext, id: string, input: TUpdateUser) => updateUser(db, ctx, id, input),
      list: (q: TPageQuery) => listUsers(db, q),
      getByEmail: (email: string) => getUserByEmail(db, email),
      getById: (id: string) => db.user.findUnique({ where: { id } }),
      ensureAdmin: (opts: { email?: string | undefined; password?: string | undefined }) => ensureAdmin(db, opts),
    },
    tokens: {
      create: (ctx: RequestContext, userId: string, opts: { name: string; expiresInDays?: number | undefined }) =>
        createApiToken(db, ctx, userId, opts),
      revoke: (ctx: RequestContext, idOrPrefix: string) => revokeApiToken(db, ctx, idOrPrefix),
      list: (userId: string) => listApiTokens(db, userId),
      authenticate: (token: string) => authenticateApiToken(db, token),
    },
    auth: {
      verifyCredentials: (input: { email: string; password: string; ip?: string | undefined }) =>
        verifyCredentials(db, loginLimiter, input),
    },
    health: () => checkHealth(db, VERSION),
    async close() {
      await loginLimiter.close();
      await db.$disconnect();
    },
  };
}

export type Gateway = ReturnType<typeof createGateway>;
