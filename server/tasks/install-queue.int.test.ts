// The task queue's schema on a database without it, installed by many processes starting at the same moment: each
// in turn (install-queue.ts). Without the turns, three concurrent installs lost about one time in three with 23505
// on pg_namespace, and a replica whose task workers failed to start was never ready (CI, stop 43). A start that
// fails is tried again: server/health/start-retries.int.test.ts. The contenders (server/test/fixtures/
// install-queue-process.ts) run installTaskQueue in two processes.
import { spawn } from "node:child_process";
import path from "node:path";
import { compiledScript } from "../test/compiled-script";
import pg from "pg";
import { describe, expect, it } from "vitest";
import { scratchDatabases } from "../test/scratch-databases";
import { waitUntil } from "../../scripts/test-support/wait-until";

const REPO_ROOT = path.resolve(import.meta.dirname, "../..");
const BARRIER = 0x70637462; // the test's own lock class: the contenders wait on it, then start together
const ROUNDS = 6;
const PER_PROCESS = 3;

const databases = scratchDatabases();

/** A process of PER_PROCESS installs, each waiting on the barrier first; resolves with its report. */
async function contenders(url: string): Promise<{ ok: number; errors: string[] }> {
  const script = await compiledScript("server/test/fixtures/install-queue-process.ts");
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [script, url, String(PER_PROCESS), String(BARRIER)], {
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
      const url = await databases.create(`queue_race_${String(process.pid)}_${String(round)}`);
      // The barrier: held here until every contender waits on it, then let go at once.
      const gate = new pg.Client({ connectionString: url });
      await gate.connect();
      await gate.query("SELECT pg_advisory_lock($1::int, 0)", [BARRIER]);
      const reports = Promise.all([contenders(url), contenders(url)]);
      await waitUntil("every contender at the barrier", async () => {
        const { rows } = await gate.query<{ n: number }>("SELECT count(*)::int AS n FROM pg_locks WHERE locktype = 'advisory' AND classid = $1 AND NOT granted", [BARRIER]);
        return rows[0]!.n === 2 * PER_PROCESS ? true : undefined;
      }, { timeoutMs: 30_000, intervalMs: 20 });
      await gate.end();
      expect(await reports, `round ${String(round)}`).toEqual([{ ok: PER_PROCESS, errors: [] }, { ok: PER_PROCESS, errors: [] }]);
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
