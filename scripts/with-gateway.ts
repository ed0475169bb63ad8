// Runs one CLI command against the database: DATABASE_URL, or the embedded PostgreSQL of a Portcullis
// already running on DATA_DIR, or a temporary embedded one. Migrations are applied first.
import { z } from "zod";
import { loadConfig } from "../server/config";
import { systemContext, type RequestContext } from "../server/context";
import { createDb } from "../server/db/client";
import { resolveDatabase } from "../server/db/embedded";
import { applyMigrations } from "../server/db/migrate";
import { isGatewayError } from "../server/errors";
import { createGateway, type Gateway } from "../server/index";
import { createLogger } from "../server/logger";

export async function withGateway(fn: (gw: Gateway, ctx: RequestContext) => Promise<void>): Promise<void> {
  const config = loadConfig();
  const logger = createLogger(process.env.LOG_LEVEL ?? "warn");
  const database = await resolveDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir, port: config.embeddedPgPort, logger, shareRunning: true });
  const applied = await applyMigrations({ databaseUrl: database.url });
  if (applied.length) console.log(`Applied migrations: ${applied.join(", ")}`);
  const gw = createGateway({ db: createDb(database.url, { max: 2 }), databaseUrl: database.url, logger, config });
  try {
    await fn(gw, { ...systemContext("cli"), via: "cli" });
  } catch (err) {
    if (isGatewayError(err)) throw new Error(err.message, { cause: err });
    if (err instanceof z.ZodError) throw new Error(err.issues.map((i) => `${i.path.join(".") || "input"}: ${i.message}`).join("; "), { cause: err });
    throw err;
  } finally {
    await gw.close();
    await database.stop();
  }
}
