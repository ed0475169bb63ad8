// The task queue's schema on a database without it, installed by many processes starting at the same moment: each
// in turn (install-queue.ts). Without the turns, three concurrent installs lost about one time in three with 23505
// on pg_namespace, and a replica whose task workers failed to start was never ready (CI, stop 43). And a process
// whose workers cannot start yet (the database not there) keeps trying, and is ready once they start.
import { spawn } from "node:child_process";
import path from "node:path";
import { Writable } from "node:stream";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadConfig } from "../config";
import { createDb } from "../db/client";
import { applyMigrations } from "../db/migrate";
import { createGateway } from "../index";
import { createLogger } from "../logger";
import { testDatabaseUrl } from "../test/test-db";
import { waitUntil } from "../../scripts/test-support/wait-until";
import { installTaskQueue } from "./install-queue";

const REPO_ROOT = path.resolve(import.meta.dirname, "../..");
const BARRIER = 0x70637462; // the test's own lock class: the contenders wait on it, then start together
const ROUNDS = 6;
const PER_PROCESS = 3;

const admin = new pg.Client({ connectionString: testDatabaseUrl() });
const made: string[] = [];
const urlOf = (name: string) => {
  const url = new URL(testDatabaseUrl());
  url.pathname = `/${name}`;
  return url.toString();
};

beforeAll(async () => {
  await admin.connect();
});
afterAll(async () => {
  for (const name of made) await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  await admin.end();
});

async function freshDatabase(tag: string): Promise<string> {
  const name = `queue_${tag}_${String(process.pid)}_${String(made.length)}`;
  made.push(name);
  await admin.query(`CREATE DATABASE ${name}`);
  return urlOf(name);
}

/** The second process: PER_PROCESS installs, each waiting on the barrier first; resolves with its report. */
function otherProcess(url: string): Promise<{ ok: number; errors: string[] }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ["--import", "tsx", path.join(REPO_ROOT, "server/test/fixtures/install-queue-process.ts"), url, String(PER_PROCESS), String(BARRIER)], {
      cwd: REPO_ROOT,
      stdio: ["ignore", "pipe", "inherit"],
    });
    let out = "";
    child.stdout.setEncoding("utf8").on("data", (s: string) => (out += s));
    child.once("error", reject);
    child.once("close", (code) => (code === 0 ? resolve(JSON.parse(out.trim()) as { ok: number; errors: string[] }) : reject(new Error(`exit ${String(code)}: ${out}`))));
  });
}

describe("installTaskQueue", () => {
  it(`${String(2 * PER_PROCESS)} installs on two processes released at once: all succeed, in ${String(ROUNDS)} fresh databases out of ${String(ROUNDS)}`, async () => {
    for (let round = 0; round < ROUNDS; round++) {
      const url = await freshDatabase("race");
      // The barrier: held here until every contender waits on it, then let go at once.
      const gate = new pg.Client({ connectionString: url });
      await gate.connect();
      await gate.query("SELECT pg_advisory_lock($1::int, 0)", [BARRIER]);
      const other = otherProcess(url);
      const here = Promise.allSettled(
        Array.from({ length: PER_PROCESS }, async () => {
          const wait = new pg.Client({ connectionString: url });
          await wait.connect();
          await wait.query("SELECT pg_advisory_lock_shared($1::int, 0)", [BARRIER]);
          await wait.end();
          await installTaskQueue(url);
        }),
      );
      await waitUntil("every contender at the barrier", async () => {
        const { rows } = await gate.query<{ n: number }>("SELECT count(*)::int AS n FROM pg_locks WHERE locktype = 'advisory' AND classid = $1 AND NOT granted", [BARRIER]);
        return rows[0]!.n === 2 * PER_PROCESS ? true : undefined;
      }, { timeoutMs: 30_000, intervalMs: 20 });
      await gate.end();
      const [mine, theirs] = await Promise.all([here, other]);
      expect(mine.flatMap((r) => (r.status === "rejected" ? [String(r.reason)] : [])), `round ${String(round)}`).toEqual([]);
      expect(theirs, `round ${String(round)}`).toEqual({ ok: PER_PROCESS, errors: [] });
      // Installed once, whole: graphile-worker's schema with every one of its migrations.
      const check = new pg.Client({ connectionString: url });
      await check.connect();
      const { rows } = await check.query<{ n: number; last: number }>("SELECT count(*)::int AS n, max(id) AS last FROM graphile_worker.migrations");
      await check.end();
      expect(rows[0]!.n).toBeGreaterThan(0);
      expect(rows[0]!.n).toBe(rows[0]!.last);
    }
  }, 120_000);
});

describe("the task workers of a gateway whose database is not there yet", () => {
  function capture() {
    const lines: { msg?: string; attempt?: number }[] = [];
    const stream = new Writable({
      write(chunk: Buffer, _enc, done) {
        for (const line of chunk.toString("utf8").split("\n")) if (line.trim()) lines.push(JSON.parse(line) as { msg?: string });
        done();
      },
    });
    return { lines, logger: createLogger("error", {}, stream) };
  }
  const failures = (lines: { msg?: string }[]) => lines.filter((l) => l.msg === "starting the task workers failed; trying again").length;

  it("keep trying: ready once it is created and migrated", async () => {
    const name = `queue_later_${String(process.pid)}`;
    made.push(name);
    const url = urlOf(name);
    const { lines, logger } = capture();
    const gateway = createGateway({ db: createDb(url, { max: 2 }), databaseUrl: url, logger, config: loadConfig({ ...process.env, NODE_ENV: "test" }) });
    try {
      const started = gateway.startTasks();
      await waitUntil("a failed start", () => (failures(lines) >= 1 ? true : undefined), { timeoutMs: 30_000 });
      expect((await gateway.ready()).checks.tasks).toBe(false);
      await admin.query(`CREATE DATABASE ${name}`);
      await applyMigrations({ databaseUrl: url, prismaDir: path.join(REPO_ROOT, "prisma") });
      await started;
      expect((await gateway.ready()).checks.tasks).toBe(true);
    } finally {
      await gateway.close();
    }
  }, 90_000);

  it("stop trying when the gateway closes: close() does not wait out the next try", async () => {
    const url = urlOf(`queue_never_${String(process.pid)}`);
    const { lines, logger } = capture();
    const gateway = createGateway({ db: createDb(url, { max: 2 }), databaseUrl: url, logger, config: loadConfig({ ...process.env, NODE_ENV: "test" }) });
    const started = gateway.startTasks();
    await waitUntil("two failed starts", () => (failures(lines) >= 2 ? true : undefined), { timeoutMs: 30_000 });
    // It gives up with the last failure (a try after close() would have resolved quietly instead: nothing to start).
    const gaveUp = expect(started).rejects.toThrow(/does not exist/);
    await gateway.close();
    await gaveUp;
  }, 60_000);
});
