// Work done one process at a time across every process on a database: a session advisory lock taken on a
// connection of its own, without a time limit, and released by ending that session (also when the work failed half
// way). For what must not race on a fresh database, such as a schema's install (migrations, the task queue's).
import pg from "pg";

/**
 * Runs `fn` holding `pg_advisory_lock(lockClass, 0)` on its own connection to `sessionUrl`, a real session (not a
 * transaction pooler); `fn` is handed that connection.
 */
export async function underSessionLock<T>(sessionUrl: string, lockClass: number, applicationName: string, fn: (client: pg.Client) => Promise<T>): Promise<T> {
  const lock = new pg.Client({ connectionString: sessionUrl, application_name: applicationName });
  await lock.connect();
  try {
    await lock.query("SELECT pg_advisory_lock($1::int, 0)", [lockClass]);
    return await fn(lock);
  } finally {
    // Ending the session releases the lock.
    await lock.end().catch(() => undefined);
  }
}
