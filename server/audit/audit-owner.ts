// Which process a call's request record belongs to, and whether that process still lives. A call's record is
// committed when it starts (status `started`) and completed by its outcome when it ends; a process that dies in
// between leaves records nobody will complete. Each writer that splits records holds a PostgreSQL advisory lock
// (class AUDIT_OWNER_LOCK_CLASS, key hashtext(owner id)) on a connection of its own for its whole life, and
// names its owner id in each request record (details.owner). A record whose owner's lock is free belongs to a
// dead process and is marked `interrupted`; the records of live processes (their calls still running) are not.
import { randomUUID } from "node:crypto";
import pg from "pg";
import type { AuditSink } from "./audit-sink";
import { STARTED } from "./audit-sink";
import { retryUntilUp } from "../db/retry-until-up";

const AUDIT_OWNER_LOCK_CLASS = 0x70636177; // "pcaw"

export type AuditOwner = {
  id: string;
  /** Resolves true once the lock is held; false if it could not be taken (the records are then sweepable). */
  held: Promise<boolean>;
  close(): Promise<void>;
};

/**
 * Holds this process's owner lock on a connection of its own until close. A dropped connection (PostgreSQL
 * restarted) frees the lock: other processes may then mark this one's running calls interrupted, and each call's
 * outcome, written when it ends, replaces that mark. So the lock is taken again, 1 s apart growing to 5 s, until held.
 */
export function holdAuditOwner(databaseUrl: string, onError: (err: unknown, msg: string) => void): AuditOwner {
  const id = `audit-${randomUUID()}`;
  let client: pg.Client | undefined;
  let closed = false;
  const take = async (): Promise<boolean> => {
    const c = new pg.Client({ connectionString: databaseUrl, application_name: `portcullis ${id}` });
    c.on("error", (err) => {
      onError(err, "the audit owner's connection was lost; taking the lock again (running calls may be marked interrupted until they end)");
      if (client === c) client = undefined;
      again();
    });
    try {
      await c.connect();
      await c.query("SELECT pg_advisory_lock($1::int, hashtext($2))", [AUDIT_OWNER_LOCK_CLASS, id]);
    } catch (err) {
      await c.end().catch(() => undefined);
      throw err;
    }
    if (closed) {
      await c.end().catch(() => undefined);
      return false;
    }
    client = c;
    retrying.reset();
    return true;
  };
  const retrying = retryUntilUp(take, { closed: () => closed, onFailure: () => undefined });
  const again = retrying.schedule;
  const held = take().catch((err: unknown) => {
    onError(err, "the audit owner lock could not be taken; running calls may be marked interrupted until they end");
    again();
    return false;
  });
  return {
    id,
    held,
    close: async () => {
      closed = true;
      retrying.cancel();
      await held;
      await client?.end().catch(() => undefined);
    },
  };
}

// One statement: the lock is tried per owner inside it (a transaction-scoped try, released at commit), so a
// live owner's records are never touched. This process's own records are excluded by id (its own session
// lock would let the try succeed).
const SWEEP_SQL = `UPDATE audit_events SET "status" = 'interrupted', "errorCode" = 'interrupted',
  "reason" = 'The gateway process stopped while the call ran: whether the call took effect is unknown.'
  WHERE "status" = '${STARTED}' AND "details"->>'owner' IS NOT NULL AND "details"->>'owner' <> ($1::json->>'self')
  AND pg_try_advisory_xact_lock(${String(AUDIT_OWNER_LOCK_CLASS)}, hashtext("details"->>'owner'))`;

/** Marks the request records of dead processes `interrupted`; resolves with how many. */
export async function sweepInterruptedCalls(sink: AuditSink, self: string): Promise<number> {
  const r = await sink.execute(SWEEP_SQL, JSON.stringify({ self }));
  // node-postgres answers with a result (rowCount), Prisma's raw execute with the count.
  return typeof r === "number" ? r : ((r as { rowCount?: number | null }).rowCount ?? 0);
}
