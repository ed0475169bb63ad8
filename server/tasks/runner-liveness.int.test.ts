// The runner lock alone, over the test database: held while the process lives, taken again under a new runner id
// when its connection is lost (the other processes' sweeps would otherwise take this live process for dead), and
// freed with the connection.
import { Writable } from "node:stream";
import pg from "pg";
import { afterAll, describe, expect, it } from "vitest";
import { createLogger } from "../logger";
import { testDatabaseUrl } from "../test/test-db";
import { runnerLiveness } from "./runner-liveness";
import { RUNNER_LOCK_CLASS } from "./task-scope";

const admin = new pg.Client({ connectionString: testDatabaseUrl() });
const connected = admin.connect();
afterAll(() => admin.end());

/** The backends holding runner `id`'s lock. */
async function holders(id: string): Promise<number[]> {
  await connected;
  const { rows } = await admin.query<{ pid: number }>(
    `SELECT l.pid FROM pg_locks l WHERE l.locktype = 'advisory' AND l.granted AND l.classid = $1::oid AND l.objid = hashtext($2)::oid`,
    [RUNNER_LOCK_CLASS, id],
  );
  return rows.map((r) => r.pid);
}

/** A logger that tells when the liveness connection was lost and the runner renewed. */
function renewals() {
  let renewed: (line: Record<string, unknown>) => void = () => undefined;
  const next = () => new Promise<Record<string, unknown>>((resolve) => (renewed = resolve));
  const sink = new Writable({
    write(chunk: Buffer, _enc, done) {
      for (const text of chunk.toString("utf8").split("\n").filter(Boolean)) {
        const line = JSON.parse(text) as Record<string, unknown>;
        if (line.msg === "task liveness connection lost; going on as a new runner") renewed(line);
      }
      done();
    },
  });
  return { log: createLogger("error", {}, sink), next };
}

describe("the runner lock", () => {
  it("is held on its own connection, taken again under a new runner id when that connection is lost, and freed at the end", async () => {
    const { log, next } = renewals();
    const alsoHeldOn: number[] = [];
    const liveness = runnerLiveness({
      sessionUrl: testDatabaseUrl(),
      holdAlso: async (client) => void alsoHeldOn.push((await client.query<{ pid: number }>("SELECT pg_backend_pid() AS pid")).rows[0]!.pid),
      closed: () => false,
      log,
    });
    expect(liveness.everLive()).toBe(false);
    const first = liveness.runnerId();
    const client = await liveness.live();
    expect(await liveness.live()).toBe(client);
    const [pid] = await holders(first);
    expect(pid).toBeDefined();
    expect(alsoHeldOn).toEqual([pid]);
    expect(liveness.everLive()).toBe(true);

    // PostgreSQL ends the session (a restart, an operator): the lock goes with it.
    const renewed = next();
    await admin.query("SELECT pg_terminate_backend($1)", [pid]);
    const line = await renewed;
    const second = liveness.runnerId();
    expect(second).not.toBe(first);
    expect(line).toMatchObject({ previousRunner: first, runner: second });
    const again = await liveness.live();
    expect(again).not.toBe(client);
    const [newPid] = await holders(second);
    expect(newPid).toBeDefined();
    expect(newPid).not.toBe(pid);
    expect(await holders(first)).toEqual([]);
    expect(alsoHeldOn).toEqual([pid, newPid]);

    await liveness.end();
    expect(await holders(second)).toEqual([]);
  });

  it("a connection that cannot lock is ended and not kept: the next caller tries again", async () => {
    const { log } = renewals();
    let fail = true;
    const liveness = runnerLiveness({
      sessionUrl: testDatabaseUrl(),
      holdAlso: async () => {
        if (fail) throw new Error("the workers' locks could not be taken");
      },
      closed: () => false,
      log,
    });
    await expect(liveness.live()).rejects.toThrow("the workers' locks could not be taken");
    expect(await holders(liveness.runnerId())).toEqual([]);
    expect(liveness.everLive()).toBe(false);
    fail = false;
    await liveness.live();
    expect(await holders(liveness.runnerId())).toHaveLength(1);
    await liveness.end();
  });
});
