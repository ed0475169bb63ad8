// `npm run db:migration -- <name>` against a copy of prisma/ in a temp dir, so the repo's migrations stay untouched.
import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { appendFile, cp, mkdtemp, readdir, readFile, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { testDatabaseUrl } from "../server/test/test-db";

const ROOT = path.resolve(import.meta.dirname, "..");
const SCRIPT = path.join(ROOT, "scripts", "db-migration.ts");
const TSX = path.join(ROOT, "node_modules", ".bin", "tsx");

let workDir: string;
const migrationsDir = () => path.join(workDir, "prisma", "migrations");
const folders = async () =>
  (await readdir(migrationsDir(), { withFileTypes: true }))
    .filter((d) => d.isDirectory())
    .map((d) => d.name)
    .sort();

function run(...args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(TSX, [SCRIPT, ...args], {
      cwd: workDir,
      env: { ...process.env, DATABASE_URL: testDatabaseUrl() },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (c: Buffer) => (stdout += c.toString()));
    child.stderr.on("data", (c: Buffer) => (stderr += c.toString()));
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, stdout, stderr }));
  });
}

const WIDGET = `
model Widget {
  id        String   @id @default(cuid())
  name      String
  createdAt DateTime @default(now())

  @@index([name])
  @@map("widgets")
}
`;

describe("scripts/db-migration.ts", () => {
  beforeAll(async () => {
    workDir = await mkdtemp(path.join(os.tmpdir(), "portcullis-db-migration-"));
    await cp(path.join(ROOT, "prisma"), path.join(workDir, "prisma"), { recursive: true });
  });
  afterAll(() => rm(workDir, { recursive: true, force: true }));

  it("reports that nothing changed and creates no folder when the schema matches the newest migration", async () => {
    const before = await folders();
    const res = await run("noop");
    expect(res.stderr).toBe("");
    expect(res.code).toBe(0);
    expect(res.stdout).toMatch(/has not changed.*nothing to create/);
    expect(await folders()).toEqual(before);
  });

  it.each([["Bad-Name"], ["has space"], ["UPPER"], [""]])(
    "exits with 2 and the usage for the name %o",
    async (name) => {
      const before = await folders();
      const res = await run(...(name ? [name] : []));
      expect(res.code).toBe(2);
      expect(res.stderr).toMatch(/usage: npm run db:migration -- <name>/);
      expect(await folders()).toEqual(before);
    },
  );

  it("writes a new migration with CREATE TABLE and a schema copy for an added model, after which nothing is pending", async () => {
    const before = await folders();
    const schemaPath = path.join(workDir, "prisma", "schema.prisma");
    await appendFile(schemaPath, WIDGET);

    const res = await run("add_widget");
    expect(res.stderr).toBe("");
    expect(res.code).toBe(0);

    const after = await folders();
    const added = after.filter((f) => !before.includes(f));
    expect(added).toHaveLength(1);
    const folder = added[0]!;
    expect(folder).toMatch(/^\d{14}_add_widget$/);
    expect(after.at(-1)).toBe(folder); // sorts after every earlier migration, so it is applied last
    expect(res.stdout).toContain(path.join("prisma", "migrations", folder, "migration.sql"));

    const sql = await readFile(path.join(migrationsDir(), folder, "migration.sql"), "utf8");
    expect(sql).toMatch(/CREATE TABLE "widgets" \(/);
    expect(sql).toMatch(/CREATE INDEX "widgets_name_idx" ON "widgets"\("name"\)/);
    expect(sql).not.toMatch(/CREATE TABLE "users"/); // a diff from the previous schema, not the whole database
    expect(await readFile(path.join(migrationsDir(), folder, "schema.prisma"), "utf8")).toBe(
      await readFile(schemaPath, "utf8"),
    );
    expect(existsSync(path.join(migrationsDir(), "migration_lock.toml"))).toBe(true);

    const again = await run("still_nothing");
    expect(again.code).toBe(0);
    expect(again.stdout).toMatch(/nothing to create/);
    expect(await folders()).toEqual(after);
  });
});
