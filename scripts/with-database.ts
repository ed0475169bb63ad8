// Runs one CLI command against the database: DATABASE_URL, or the embedded PostgreSQL of a Portcullis
// already running on DATA_DIR, or a temporary embedded one. Migrations are applied first. The commands get the
// user and token operations alone, not a whole gateway: loading the gateway's modules took seconds per command.
import { z } from "zod";
import type { TCreateUser, TPageQuery, TResetPassword, TUpdateUser } from "../lib/schemas";
import type { LoginLimiter } from "../server/auth/login-limiter";
import { createLoginLimiter } from "../server/auth/login-limiter";
import { loadConfig } from "../server/config";
import { systemContext, type RequestContext } from "../server/context";
import { createDb, type Db } from "../server/db/client";
import { resolveDatabase } from "../server/db/embedded";
import { applyMigrations } from "../server/db/migrate";
import { isGatewayError } from "../server/errors";
import { createLogger } from "../server/logger";
import { createApiToken } from "../server/tokens/create-api-token";
import { listApiTokens, revokeApiToken } from "../server/tokens/revoke-api-token";
import { createUser } from "../server/users/create-user";
import { getUserByEmail, listUsers } from "../server/users/list-users";
import { resetPassword } from "../server/users/reset-password";
import { updateUser } from "../server/users/update-user";

/** What the CLI's commands do, as the gateway's `users` and `tokens` do it. */
export type CliOps = ReturnType<typeof cliOps>;

function cliOps(db: Db, loginLimiter: Pick<LoginLimiter, "reset">) {
  return {
    users: {
      create: (ctx: RequestContext, input: TCreateUser) => createUser(db, ctx, input),
      // Running gateways drop their cached view of the user on the NOTIFY updateUser sends.
      update: (ctx: RequestContext, id: string, input: TUpdateUser) => updateUser(db, ctx, id, input),
      list: (q: TPageQuery) => listUsers(db, q),
      getByEmail: (email: string) => getUserByEmail(db, email),
      resetPassword: (ctx: RequestContext, id: string, input: TResetPassword) => resetPassword(db, loginLimiter, ctx, id, input),
    },
    tokens: {
      create: (ctx: RequestContext, userId: string, opts: { name: string; expiresInDays?: number | undefined }) => createApiToken(db, ctx, userId, opts),
      revoke: (ctx: RequestContext, idOrPrefix: string) => revokeApiToken(db, ctx, idOrPrefix),
      list: (userId: string) => listApiTokens(db, userId),
    },
  };
}

export async function withDatabase(fn: (ops: CliOps, ctx: RequestContext) => Promise<void>): Promise<void> {
  const config = loadConfig();
  const logger = createLogger(process.env.LOG_LEVEL ?? "warn");
  const database = await resolveDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir, port: config.embeddedPgPort, logger, shareRunning: true });
  const applied = await applyMigrations({ databaseUrl: database.url });
  if (applied.length) console.log(`Applied migrations: ${applied.join(", ")}`);
  const db = createDb(database.url, { max: 2 });
  // Opened only when a command clears failed sign-ins (set-password): its pool is not needed otherwise.
  let limiter: LoginLimiter | undefined;
  const loginLimiter = { reset: (key: string) => (limiter ??= createLoginLimiter(database.url, config.login)).reset(key) };
  try {
    await fn(cliOps(db, loginLimiter), { ...systemContext("cli"), via: "cli" });
  } catch (err) {
    if (isGatewayError(err)) throw new Error(err.message, { cause: err });
    if (err instanceof z.ZodError) throw new Error(err.issues.map((i) => `${i.path.join(".") || "input"}: ${i.message}`).join("; "), { cause: err });
    throw err;
  } finally {
    await limiter?.close();
    await db.$disconnect();
    await database.stop();
  }
}
