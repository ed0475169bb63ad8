// Each test owns a temp DATA_DIR and its own PostgreSQL, apart from the run's shared test database.
import { spawn } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { mkdir, writeFile } from "node:fs/promises";
import path from "node:path";
import pg from "pg";
import { afterEach, describe, expect, it } from "vitest";
import { createLogger } from "../logger";
import {
  destroyDataDir,
  makeTempDataDir,
  pidAlive,
  postmasterPid,
  processesMentioning,
  spawnHolder,
  waitFor,
  type Holder,
} from "../test/embedded-pg-helpers";
import {
  dataPaths,
  DataDirInUseError,
  resolveDatabase,
  runningOwner,
  socketPathFits,
  startEmbeddedPostgres,
  type EmbeddedDatabase,
} from "./embedded";

const logger = createLogger("silent");

async function query<T extends pg.QueryResultRow>(url: string, sql: string): Promise<T[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query<T>(sql)).rows;
  } finally {
    await client.end();
  }
}

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const fn of cleanups.splice(0).reverse()) await fn().catch(() => undefined);
});

async function tempDataDir(): Promise<string> {
  const dir = await makeTempDataDir();
  cleanups.push(() => destroyDataDir(dir));
  return dir;
}

async function start(dataDir: string): Promise<EmbeddedDatabase> {
  const db = await startEmbeddedPostgres({ dataDir, logger });
  cleanups.push(() => db.stop());
  return db;
}

async function holder(dataDir: string): Promise<Holder> {
  const h = await spawnHolder(dataDir);
  cleanups.push(async () => {
    if (h.child.exitCode === null && h.child.signalCode === null) h.child.kill("SIGTERM");
    // Its 'exit' (it stops its PostgreSQL first): a holder that ignored SIGTERM fails the hook at its timeout.
    await h.exited;
  });
  return h;
}

describe("socketPathFits", () => {
  it.each([
    ["/var/lib/portcullis/pg", 5432, true],
    [`/${"d".repeat(91)}`, 54321, true], // 92 + "/.s.PGSQL.54321" (15) = 107 bytes
    [`/${"d".repeat(92)}`, 54321, false],
    [`/${"é".repeat(47)}`, 54321, false], // counted in bytes, not characters
  ])("%s, port %d: %s", (dir, port, fits) => {
    expect(socketPathFits(dir, port)).toBe(fits);
  });
});

describe("startEmbeddedPostgres", () => {
  it("starts, answers queries, stops without leaving a process, and keeps its data for the next start", async () => {
    const dataDir = await tempDataDir();
    const first = await start(dataDir);
    expect(first.url).toMatch(/^postgresql:\/\/postgres:[^@]+@127\.0\.0\.1:\d+\/portcullis$/);
    // The process's own connections go over the server's Unix socket (inet_server_addr() is NULL there), others over TCP.
    expect(first.localUrl).toMatch(/^postgresql:\/\/postgres:[^@]+@localhost:\d+\/portcullis\?host=/);
    expect(await query<{ addr: string | null }>(first.localUrl, "SELECT inet_server_addr()::text AS addr")).toEqual([{ addr: null }]);
    expect(await query<{ addr: string | null }>(first.url, "SELECT inet_server_addr()::text AS addr")).toEqual([{ addr: "127.0.0.1/32" }]);
    await query(first.url, "CREATE TABLE kept (id int PRIMARY KEY, note text)");
    await query(first.url, "INSERT INTO kept VALUES (1, 'survives a restart')");

    const paths = dataPaths(dataDir);
    expect(readFileSync(paths.lockFile, "utf8").trim()).toBe(String(process.pid));
    expect(readFileSync(paths.urlFile, "utf8").trim()).toBe(first.url);
    const pid = postmasterPid(dataDir);
    expect(pid).toBeDefined();
    expect(pidAlive(pid!)).toBe(true);
    expect(processesMentioning(paths.pgDir)).toContain(pid);

    await first.stop();
    expect(pidAlive(pid!)).toBe(false);
    expect(processesMentioning(paths.pgDir)).toEqual([]);
    expect(existsSync(paths.lockFile)).toBe(false);
    expect(existsSync(paths.urlFile)).toBe(false);
    await first.stop(); // a second stop is harmless

    const second = await start(dataDir);
    const rows = await query<{ id: number; note: string }>(second.url, "SELECT id, note FROM kept");
    expect(rows).toEqual([{ id: 1, note: "survives a restart" }]);
    expect(readFileSync(paths.passwordFile, "utf8").trim()).toBe(decodeURIComponent(new URL(second.url).password));
  });

  it("refuses a DATA_DIR held by another live Portcullis, naming its pid, and leaves the running one alone", async () => {
    const dataDir = await tempDataDir();
    const running = await start(dataDir);
    const other = spawn("sleep", ["30"], { stdio: "ignore" });
    cleanups.push(async () => other.kill("SIGKILL"));
    const { lockFile } = dataPaths(dataDir);
    await writeFile(lockFile, `${other.pid}\n`);

    const err = await startEmbeddedPostgres({ dataDir, logger }).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(DataDirInUseError);
    expect(err).toMatchObject({ pid: other.pid, dataDir });
    expect((err as Error).message).toContain(`pid ${other.pid}`);
    expect(readFileSync(lockFile, "utf8").trim()).toBe(String(other.pid));
    expect(await query<{ one: number }>(running.url, "SELECT 1 AS one")).toEqual([{ one: 1 }]);

    await writeFile(lockFile, `${process.pid}\n`);
  });

  it("ignores a lock file left by a process that has died", async () => {
    const dataDir = await tempDataDir();
    const dead = spawn("true", { stdio: "ignore" });
    await new Promise((r) => dead.once("exit", r));
    await mkdir(dataDir, { recursive: true });
    await writeFile(dataPaths(dataDir).lockFile, `${dead.pid}\n`);
    expect(await runningOwner(dataDir)).toBeUndefined();
    const db = await start(dataDir);
    expect(await query(db.url, "SELECT 1 AS one")).toEqual([{ one: 1 }]);
  });

  it("stops a PostgreSQL orphaned by a killed Portcullis and starts cleanly on the same data", async () => {
    const dataDir = await tempDataDir();
    const h = await holder(dataDir);
    await query(h.url, "CREATE TABLE kept (id int)");
    await query(h.url, "INSERT INTO kept VALUES (42)");
    const orphan = postmasterPid(dataDir)!;
    expect(orphan).toBeDefined();

    h.child.kill("SIGKILL");
    await h.exited;
    expect(pidAlive(h.pid)).toBe(false);
    expect(pidAlive(orphan)).toBe(true); // the crash left PostgreSQL running
    expect(await runningOwner(dataDir)).toBeUndefined();

    const db = await start(dataDir);
    expect(pidAlive(orphan)).toBe(false);
    const fresh = postmasterPid(dataDir);
    expect(fresh).not.toBe(orphan);
    expect(pidAlive(fresh!)).toBe(true);
    expect(await query<{ id: number }>(db.url, "SELECT id FROM kept")).toEqual([{ id: 42 }]);
    expect(readFileSync(dataPaths(dataDir).lockFile, "utf8").trim()).toBe(String(process.pid));

    await db.stop();
    await waitFor(() => processesMentioning(dataPaths(dataDir).pgDir).length === 0, 5000, "no postgres on the dir");
  });
});

describe("resolveDatabase", () => {
  it("uses DATABASE_URL as given and starts nothing", async () => {
    const dataDir = path.join(await tempDataDir(), "never-created");
    const url = "postgresql://someone:secret@db.example.com:5432/portcullis";
    for (const shareRunning of [true, false]) {
      const handle = await resolveDatabase({ databaseUrl: url, dataDir, logger, shareRunning });
      expect(handle.url).toBe(url);
      expect(handle.embedded).toBe(false);
      await handle.stop();
    }
    expect(existsSync(dataDir)).toBe(false);
  });

  it("shares the embedded PostgreSQL of a Portcullis already running on DATA_DIR (CLI), or refuses it (server)", async () => {
    const dataDir = await tempDataDir();
    const h = await holder(dataDir);
    expect(await runningOwner(dataDir)).toBe(h.pid);

    const shared = await resolveDatabase({ databaseUrl: undefined, dataDir, logger, shareRunning: true });
    expect(shared).toMatchObject({ url: h.url, embedded: false });
    expect(await query(shared.url, "SELECT 1 AS one")).toEqual([{ one: 1 }]);
    const pid = postmasterPid(dataDir);
    await shared.stop(); // does not stop the owner's server
    expect(pidAlive(pid!)).toBe(true);

    const err = await resolveDatabase({ databaseUrl: undefined, dataDir, logger, shareRunning: false }).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(DataDirInUseError);
    expect((err as DataDirInUseError).pid).toBe(h.pid);

    h.child.kill("SIGTERM");
    expect(await h.exited).toBe(0);
    expect(pidAlive(pid!)).toBe(false);
    expect(existsSync(dataPaths(dataDir).lockFile)).toBe(false);
  });

  it("starts an embedded PostgreSQL when none runs on DATA_DIR", async () => {
    const dataDir = await tempDataDir();
    const handle = await resolveDatabase({ databaseUrl: undefined, dataDir, logger, shareRunning: true });
    cleanups.push(() => handle.stop());
    expect(handle.embedded).toBe(true);
    expect(await query(handle.url, "SELECT 1 AS one")).toEqual([{ one: 1 }]);
    const pid = postmasterPid(dataDir)!;
    await handle.stop();
    expect(pidAlive(pid)).toBe(false);
  });
});
