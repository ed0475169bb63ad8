// Databases of a test file's own on the run's PostgreSQL, beside the shared one: named by the test, dropped after
// the file (a fresh database for what must start from nothing, or one that does not exist yet).
import pg from "pg";
import { afterAll, beforeAll } from "vitest";
import { waitUntil } from "../../scripts/test-support/wait-until";
import { testDatabaseUrl } from "./test-db";

export function scratchDatabases() {
  const admin = new pg.Client({ connectionString: testDatabaseUrl() });
  const made: string[] = [];
  beforeAll(async () => {
    await admin.connect();
  });
  afterAll(async () => {
    for (const name of made) await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await admin.end();
  });
  const reserve = (name: string): string => {
    if (!made.includes(name)) made.push(name);
    const url = new URL(testDatabaseUrl());
    url.pathname = `/${name}`;
    return url.toString();
  };
  return {
    /** The URL database `name` will have (it is dropped after the file); not created. */
    reserve,
    /**
     * Renames database `from` to `to`: a database made ready under another name appears whole at once. Tried again
     * while a connection just closed is still leaving PostgreSQL (55006: being accessed by other users); the last
     * error is in the failure after 5 s.
     */
    async rename(from: string, to: string): Promise<void> {
      reserve(to);
      await waitUntil(`database ${from} renamed to ${to}`, async () => (await admin.query(`ALTER DATABASE ${from} RENAME TO ${to}`), true), { timeoutMs: 5_000, intervalMs: 50 });
    },
    /** Creates database `name`; answers its URL. */
    async create(name: string): Promise<string> {
      const url = reserve(name);
      await admin.query(`CREATE DATABASE ${name}`);
      return url;
    },
  };
}
