// Ctrl-C right after start: the gateway closes while its task workers are still starting. The workers that start
// after close() must be stopped too, or their connections outlive the gateway (and PostgreSQL, stopped next,
// ends them with "terminating connection" errors).
import pg from "pg";
import { describe, expect, it } from "vitest";
import { loadConfig } from "../config";
import { createDb } from "../db/client";
import { createGateway } from "../index";
import { createLogger } from "../logger";
import { testDatabaseUrl } from "../test/test-db";

/** This database's connections, other than the asking one, whose last statement was graphile-worker's. */
async function graphileConnections(url: string): Promise<number> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM pg_stat_activity
        WHERE datname = current_database() AND pid <> pg_backend_pid() AND (query ILIKE '%graphile_worker%' OR query ILIKE 'LISTEN%jobs%')`,
    );
    return rows[0]!.n;
  } finally {
    await client.end();
  }
}

describe("gateway close() while the task workers start", () => {
  it("stops the workers that finish starting after it, leaving no graphile-worker connection", async () => {
    const url = testDatabaseUrl();
    expect(await graphileConnections(url)).toBe(0);
    const gateway = createGateway({ db: createDb(url, { max: 2 }), databaseUrl: url, logger: createLogger("silent"), config: loadConfig({ ...process.env, NODE_ENV: "test" }) });
    const starting = gateway.startTasks();
    await gateway.close();
    await starting;
    expect(await graphileConnections(url)).toBe(0);
  });
});
