// This process's runner lock: a PostgreSQL advisory lock on a connection of its own, held for the process's life,
// which is how the other processes' sweeps tell a live runner from a dead one (sweep-dead-runners.ts). The locks of
// this process's graphile-worker workers ride on the same connection (worker-locks.ts, `holdAlso`).
//
// A lost connection (PostgreSQL restarted) frees the lock, and other processes would then take this live process
// for dead and recover its tasks. So the lock is taken again at once, and by every later caller of live(), under a
// new runner id: what the old runner's rows say is no longer certain (a write of an outcome, a claim's drop or a
// job's step may have failed while the database was away), so its RUNNING tasks and claims are recovered by a sweep
// as a dead runner's, and what the old runner still finishes here no longer matches its rows and is not written
// over the recovery.
import { randomUUID } from "node:crypto";
import pg from "pg";
import type { Logger } from "../logger";
import { RUNNER_LOCK_CLASS } from "./task-scope";

export type RunnerLiveness = {
  /** The runner id this process writes on the tasks and claims it runs now. */
  runnerId(): string;
  /** The connection holding the lock, connected and locked first when there is none. */
  live(): Promise<pg.Client>;
  /** Whether the lock was ever held: only then can rows carry this process's runner ids. */
  everLive(): boolean;
  /** Ends the connection, and the lock with it. */
  end(): Promise<void>;
};

export function runnerLiveness(opts: {
  /** A real session (not a transaction pooler): the lock lives as long as it does. */
  sessionUrl: string;
  /** Locks taken again on each new connection beside the runner's. */
  holdAlso: (client: pg.Client) => Promise<void>;
  /** A closed engine does not reconnect. */
  closed: () => boolean;
  log: Logger;
}): RunnerLiveness {
  let runnerId = `runner-${randomUUID()}`;
  let liveness: Promise<pg.Client> | undefined;
  let everLive = false;
  function live(): Promise<pg.Client> {
    if (liveness) return liveness;
    const attempt: Promise<pg.Client> = (async () => {
      const id = runnerId;
      const client = new pg.Client({ connectionString: opts.sessionUrl, application_name: `portcullis ${id}` });
      client.on("error", (err) => {
        if (liveness === attempt) {
          liveness = undefined;
          runnerId = `runner-${randomUUID()}`;
          opts.log.error({ err, previousRunner: id, runner: runnerId }, "task liveness connection lost; going on as a new runner");
        }
        if (!opts.closed()) void live().catch(() => undefined);
      });
      try {
        await client.connect();
        await client.query("SELECT pg_advisory_lock($1::int, hashtext($2))", [RUNNER_LOCK_CLASS, id]);
        await opts.holdAlso(client);
      } catch (err) {
        await client.end().catch(() => undefined);
        throw err;
      }
      everLive = true;
      return client;
    })();
    liveness = attempt;
    attempt.catch(() => {
      if (liveness === attempt) liveness = undefined;
    });
    return attempt;
  }
  return {
    runnerId: () => runnerId,
    live,
    everLive: () => everLive,
    end: async () => {
      if (liveness) await liveness.then((client) => client.end()).catch(() => undefined);
    },
  };
}
