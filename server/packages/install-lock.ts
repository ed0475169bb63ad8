// The lock an install is claimed under: a transaction-scoped PostgreSQL advisory lock, so gateway processes on
// one database take turns on the same (server, version), and a process that dies mid-install releases it.
import { createHash } from "node:crypto";
import type { Db } from "../db/client";
import type { InstallLock } from "./package-installer";

/** First key of install locks (the second is a hash of the install's name). */
const INSTALL_LOCK_CLASS = 0x70637069; // "pcpi"
const lockKey = (key: string): number => createHash("sha256").update(key).digest().readInt32BE(0);

/** Holds the lock (and one connection) for the install: waiting included, at most twice its bound. */
export function advisoryInstallLock(db: Db, installTimeoutMs: number): InstallLock {
  return (key, fn) =>
    db.$transaction(
      async (tx) => {
        await tx.$executeRaw`SELECT pg_advisory_xact_lock(${INSTALL_LOCK_CLASS}::int, ${lockKey(key)}::int)`;
        return fn();
      },
      { maxWait: 30_000, timeout: installTimeoutMs * 2 + 30_000 },
    );
}

/** The two keys of an install's lock, as pg_locks shows them (classid, objid). */
export const installLockKeys = (key: string): [number, number] => [INSTALL_LOCK_CLASS, lockKey(key)];
