// graphile-worker installs and upgrades its own schema (graphile_worker.*) when run() starts. Processes that start
// together on a database without it race: all of them run `create schema if not exists`, and the losers fail with
// 23505 on pg_namespace (three at once lost about one in three times). A process whose workers failed to start is
// never ready. So the task queue's schema is installed in turn, under a session advisory lock: the first process
// installs it, the others wait, then find nothing left to do.
import { runMigrations, type Logger as GraphileLogger } from "graphile-worker";
import { underSessionLock } from "../db/session-lock";

/** First key of the lock the task queue's schema is installed under (the second is 0). */
export const QUEUE_SCHEMA_LOCK_CLASS = 0x70637173; // "pcqs"

/** Installs or upgrades graphile-worker's schema, one process at a time. `sessionUrl` must be a real session. */
export function installTaskQueue(sessionUrl: string, logger?: GraphileLogger): Promise<void> {
  return underSessionLock(sessionUrl, QUEUE_SCHEMA_LOCK_CLASS, "portcullis task queue schema", () => runMigrations({ connectionString: sessionUrl, ...(logger && { logger }) }));
}
