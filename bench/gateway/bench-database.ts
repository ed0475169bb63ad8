// A throwaway embedded PostgreSQL for the benches that time the gateway's database parts alone (claim-cost.ts,
// call-skeleton.ts): migrated, with a user and an agent session to own the rows, removed by `stop`.
import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { createDb } from "../../server/db/client";
import { startEmbeddedPostgres } from "../../server/db/embedded";
import { applyMigrations } from "../../server/db/migrate";
import { createLogger } from "../../server/logger";

export type BenchDatabase = { url: string; dataDir: string; userId: string; agentSessionId: string; stop(): Promise<void> };

export async function startBenchDatabase(name: string): Promise<BenchDatabase> {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), `${name}-`));
  const database = await startEmbeddedPostgres({ dataDir, logger: createLogger("warn") });
  const stop = async () => {
    await database.stop();
    await rm(dataDir, { recursive: true, force: true });
  };
  try {
    await applyMigrations({ databaseUrl: database.url });
    const db = createDb(database.url);
    const user = await db.user.create({ data: { email: `${name}@example.test`, passwordHash: "x" } });
    const session = await db.agentSession.create({ data: { userId: user.id, agentId: name, tokenHash: name, prefix: "pcs_b", expiresAt: new Date(Date.now() + 3_600_000) } });
    await db.$disconnect();
    return { url: database.url, dataDir, userId: user.id, agentSessionId: session.id, stop };
  } catch (err) {
    await stop();
    throw err;
  }
}
