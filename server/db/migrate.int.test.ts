import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { testDatabaseUrl } from "../test/test-db";
import { applyMigrations } from "./migrate";

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
    expect(await applyMigrations({ databaseUrl: freshUrl, prismaDir: PRISMA_DIR })).toEqual([]);
    const { rows } = await fresh.query<{ migration_name: string; finished_at: Date | null }>(
      "SELECT migration_name, finished_at FROM _prisma_migrations ORDER BY migration_name",
    );
    expect(rows.map((r) => r.migration_name)).toEqual(MIGRATIONS);
    expect(rows.every((r) => r.finished_at !== null)).toBe(true);
  });

  it("releases its connections and the migration advisory lock when it returns", async () => {
    // Prisma's migrate lock is a session-level pg_advisory_lock: a connection left open keeps it, and every
    // later migrate on this database (another replica, `portcullis migrate`) waits 10 s for it.
    const { rows: locks } = await admin.query<{ objid: number }>(
      "SELECT l.objid FROM pg_locks l JOIN pg_stat_activity a ON a.pid = l.pid WHERE l.locktype = 'advisory' AND a.datname = $1",
      [dbName],
    );
    expect(locks).toEqual([]);
    const { rows: conns } = await admin.query<{ pid: number }>(
      "SELECT pid FROM pg_stat_activity WHERE datname = $1 AND pid <> $2",
      [dbName, (await fresh.query<{ pid: number }>("SELECT pg_backend_pid() AS pid")).rows[0]!.pid],
    );
    expect(conns).toEqual([]);
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
