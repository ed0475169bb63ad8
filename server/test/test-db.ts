// Integration-test access to the run's PostgreSQL: a client, and a TRUNCATE of every table between files.
import { inject } from "vitest";
import { createDb, type Db } from "../db/client";

export function testDatabaseUrl(): string {
  return inject("databaseUrl");
}

export function createTestDb(): Db {
  return createDb(testDatabaseUrl(), { max: 4 });
}

/** Empties every application table (not `_prisma_migrations`). */
export async function truncateAll(db: Db): Promise<void> {
  const rows = await db.$queryRaw<{ tablename: string }[]>`
    SELECT tablename FROM pg_tables WHERE schemaname = 'public' AND tablename <> '_prisma_migrations'`;
  if (rows.length === 0) return;
  const list = rows.map((r) => `"public"."${r.tablename}"`).join(", ");
  await db.$executeRawUnsafe(`TRUNCATE ${list} RESTART IDENTITY CASCADE`);
  // What the migrations seed on a fresh install: admins hold every tool and path.
  await db.grant.createMany({
    data: [
      { id: "default-admin-tools", kind: "TOOL", pattern: "*", role: "ADMIN" },
      { id: "default-admin-paths", kind: "PATH", pattern: "*", role: "ADMIN" },
    ],
  });
}
