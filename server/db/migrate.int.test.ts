import { randomUUID } from "node:crypto";
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { waitUntil } from "../test/gateway-harness";
import { testDatabaseUrl } from "../test/test-db";
import { applyMigrations, MIGRATION_LOCK_CLASS, SchemaAheadError, schemaEngineStarts } from "./migrate";

const PRISMA_DIR = path.resolve(import.meta.dirname, "../../prisma");
const MIGRATIONS = readdirSync(path.join(PRISMA_DIR, "migrations"), { withFileTypes: true })
  .filter((d) => d.isDirectory())
  .map((d) => d.name)
  .sort();

/** `@@index([...])` and `@@map("...")` of every model in schema.prisma (no field in this schema uses @map). */
function declaredIndexes(): { table: string; columns: string[] }[] {
  const schema = readFileSync(path.join(PRISMA_DIR, "schema.prisma"), "utf8");
  const out: { table: string; columns: string[] }[] = [];
  for (const [, name, body] of schema.matchAll(/^model (\w+) \{([\s\S]*?)^\}/gm)) {
    const table = /@@map\("([^"]+)"\)/.exec(body!)?.[1] ?? name!;
    for (const [, cols] of body!.matchAll(/@@index\(\[([^\]]+)\]/g))
      out.push({ table, columns: cols!.split(",").map((c) => c.trim()) });
  }
  return out;
}

describe("applyMigrations", () => {
  const dbName = `migrate_test_${process.pid}_${Date.now()}`;
  const admin = new pg.Client({ connectionString: testDatabaseUrl() });
  const url = new URL(testDatabaseUrl());
  url.pathname = `/${dbName}`;
  const freshUrl = url.toString();
  const fresh = new pg.Client({ connectionString: freshUrl });
  let firstRun: string[];

  beforeAll(async () => {
    await admin.connect();
    await admin.query(`CREATE DATABASE ${dbName}`);
    firstRun = await applyMigrations({ databaseUrl: freshUrl, prismaDir: PRISMA_DIR });
    await fresh.connect();
  });
  afterAll(async () => {
    await fresh.end().catch(() => undefined);
    await admin.query(`DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`);
    await admin.end();
  });

  it("applies every migration to an empty database, then nothing the second time", async () => {
    expect(MIGRATIONS.some((m) => m.endsWith("_init"))).toBe(true);
    expect(firstRun).toEqual(MIGRATIONS);
    // The second time from the records alone: the schema engine is not started (D183).
    const starts = schemaEngineStarts();
    expect(await applyMigrations({ databaseUrl: freshUrl, prismaDir: PRISMA_DIR })).toEqual([]);
    expect(schemaEngineStarts()).toBe(starts);
    const { rows } = await fresh.query<{ migration_name: string; finished_at: Date | null }>(
      "SELECT migration_name, finished_at FROM _prisma_migrations ORDER BY migration_name",
    );
    expect(rows.map((r) => r.migration_name)).toEqual(MIGRATIONS);
    expect(rows.every((r) => r.finished_at !== null)).toBe(true);
  });

  it("releases its connections and the migration advisory lock when it returns", async () => {
    // Prisma's migrate lock is a session-level pg_advisory_lock: a connection left open keeps it, and every
    // later migrate on this database (another replica, `portcullis migrate`) waits 10 s for it.
    // A closed connection's server process leaves pg_stat_activity (and drops its locks) as it exits, a moment after
    // the client saw the socket close (a CI run under load caught one still listed): one left open never leaves.
    const own = (await fresh.query<{ pid: number }>("SELECT pg_backend_pid() AS pid")).rows[0]!.pid;
    const left = async () => {
      const { rows: locks } = await admin.query<{ objid: number }>(
        "SELECT l.objid FROM pg_locks l JOIN pg_stat_activity a ON a.pid = l.pid WHERE l.locktype = 'advisory' AND a.datname = $1",
        [dbName],
      );
      const { rows: conns } = await admin.query<{ pid: number }>("SELECT pid FROM pg_stat_activity WHERE datname = $1 AND pid <> $2", [dbName, own]);
      return { locks, conns };
    };
    expect(await waitUntil("the migration's connections to end", async () => {
      const now = await left();
      return now.locks.length === 0 && now.conns.length === 0 ? now : undefined;
    }, 5_000)).toEqual({ locks: [], conns: [] });
  });

  it("creates the application tables", async () => {
    const { rows } = await fresh.query<{ table_name: string }>(
      "SELECT table_name FROM information_schema.tables WHERE table_schema = 'public'",
    );
    const tables = rows.map((r) => r.table_name);
    for (const t of [
      "users",
      "api_tokens",
      "agent_sessions",
      "upstream_servers",
      "tools",
      "approvals",
      "tasks",
      "task_events",
      "audit_events",
      "rate_limits",
      "settings",
    ]) {
      expect(tables).toContain(t);
    }
  });

  it("creates the indexes the schema declares", async () => {
    const { rows } = await fresh.query<{ tablename: string; indexdef: string }>(
      "SELECT tablename, indexdef FROM pg_indexes WHERE schemaname = 'public'",
    );
    // Expression indexes (the audit search's trigram index) have no plain column list: they match nothing.
    const columnsOf = (def: string) =>
      (/\(([^)]*)\)\s*$/.exec(def)?.[1] ?? "")
        .split(",")
        .map((c) => c.trim().replace(/^"|"$/g, ""));
    const actual = rows.map((r) => ({ table: r.tablename, columns: columnsOf(r.indexdef) }));

    expect(actual).toContainEqual({ table: "audit_events", columns: ["occurredAt"] });
    expect(actual).toContainEqual({ table: "tasks", columns: ["ownerId", "status", "createdAt"] });
    const declared = declaredIndexes();
    expect(declared.length).toBeGreaterThan(10);
    for (const idx of declared) expect(actual).toContainEqual(idx);
  });
});

describe("applyMigrations – replicas starting together, and a database a newer release migrated", () => {
  const dbName = `migrate_race_${process.pid}_${Date.now()}`;
  const admin = new pg.Client({ connectionString: testDatabaseUrl() });
  const url = new URL(testDatabaseUrl());
  url.pathname = `/${dbName}`;
  const raceUrl = url.toString();

  beforeAll(async () => {
    await admin.connect();
    await admin.query(`CREATE DATABASE ${dbName}`);
  });
  afterAll(async () => {
    await admin.query(`DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`);
    await admin.end();
  });

  it("four at once on an empty database: one applies every migration, the others find nothing left, none fails", async () => {
    const runs = await Promise.all([1, 2, 3, 4].map(() => applyMigrations({ databaseUrl: raceUrl, prismaDir: PRISMA_DIR })));
    expect(runs.filter((r) => r.length > 0)).toEqual([MIGRATIONS]);
    expect(runs.filter((r) => r.length === 0)).toHaveLength(3);
    const client = new pg.Client({ connectionString: raceUrl });
    await client.connect();
    try {
      const { rows } = await client.query<{ n: string }>("SELECT count(*) AS n FROM _prisma_migrations");
      expect(Number(rows[0]!.n)).toBe(MIGRATIONS.length);
    } finally {
      await client.end();
    }
  });

  it("waits, without a time limit of its own, while another replica holds the migration lock (Prisma's own gives up after 10 s)", async () => {
    const other = new pg.Client({ connectionString: raceUrl });
    await other.connect();
    try {
      await other.query("SELECT pg_advisory_lock($1::int, 0)", [MIGRATION_LOCK_CLASS]);
      let done = false;
      const run = applyMigrations({ databaseUrl: raceUrl, prismaDir: PRISMA_DIR }).finally(() => (done = true));
      // Its session is seen waiting for the lock (an event in the database, not a pause here).
      await waitUntil("the migration to wait for the lock", async () => {
        const { rows } = await admin.query<{ n: string }>(
          "SELECT count(*) AS n FROM pg_stat_activity WHERE datname = $1 AND application_name = 'portcullis migrate' AND wait_event_type = 'Lock'",
          [dbName],
        );
        return Number(rows[0]!.n) === 1 ? true : undefined;
      });
      expect(done).toBe(false);
      await other.query("SELECT pg_advisory_unlock($1::int, 0)", [MIGRATION_LOCK_CLASS]);
      expect(await run).toEqual([]);
    } finally {
      await other.end();
    }
  });

  it("a failed migration on record is never skipped: the schema engine is asked and refuses, as `prisma migrate deploy` does", async () => {
    const client = new pg.Client({ connectionString: raceUrl });
    await client.connect();
    const failed = MIGRATIONS.at(-1)!;
    try {
      await client.query(
        "INSERT INTO _prisma_migrations (id, checksum, migration_name, logs, started_at, applied_steps_count) VALUES ($1, 'x', $2, 'cut off', now(), 0)",
        [randomUUID(), failed],
      );
      const starts = schemaEngineStarts();
      const err = await applyMigrations({ databaseUrl: raceUrl, prismaDir: PRISMA_DIR }).then(
        () => null,
        (e: unknown) => e,
      );
      expect(schemaEngineStarts()).toBe(starts + 1);
      expect(String(err)).toContain(failed);
      // Once an operator has resolved it (here: the row gone), nothing is left to apply and the engine stays unloaded.
      await client.query("DELETE FROM _prisma_migrations WHERE finished_at IS NULL");
      expect(await applyMigrations({ databaseUrl: raceUrl, prismaDir: PRISMA_DIR })).toEqual([]);
      expect(schemaEngineStarts()).toBe(starts + 1);
    } finally {
      await client.end();
    }
  });

  it("refuses a database with a migration this release does not know, and changes nothing", async () => {
    const client = new pg.Client({ connectionString: raceUrl });
    await client.connect();
    try {
      const future = "29991231000000_from_a_newer_release";
      await client.query(
        "INSERT INTO _prisma_migrations (id, checksum, migration_name, finished_at, started_at, applied_steps_count) VALUES ($1, 'x', $2, now(), now(), 1)",
        [randomUUID(), future],
      );
      const err = await applyMigrations({ databaseUrl: raceUrl, prismaDir: PRISMA_DIR }).then(
        () => null,
        (e: unknown) => e,
      );
      expect(err).toBeInstanceOf(SchemaAheadError);
      expect((err as SchemaAheadError).code).toBe("schema_ahead");
      expect((err as SchemaAheadError).unknown).toEqual([future]);
      expect((err as Error).message).toContain(future);
      // Its lock went with its connection: the next run (here, after the newer release's row is gone) proceeds.
      await client.query("DELETE FROM _prisma_migrations WHERE migration_name = $1", [future]);
      expect(await applyMigrations({ databaseUrl: raceUrl, prismaDir: PRISMA_DIR })).toEqual([]);
    } finally {
      await client.end();
    }
  });
});
