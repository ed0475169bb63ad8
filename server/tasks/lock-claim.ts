// Claim before acting: the look-then-insert of a claim (a task for an idempotency key or an identical call, a
// held call's approval request) runs under a transaction-scoped advisory lock, so two racing callers on any
// gateway processes take turns and the second finds what the first inserted.
import { createHash } from "node:crypto";
import type { DbTx } from "../db/client";

/** First key of the claim locks (the second is a hash of what is claimed). */
export const CLAIM_LOCK_CLASS = 0x7063636c; // "pccl"
/** The second key of a claim lock, hashed here (a key may hold anything, and PostgreSQL text no NUL). */
export const claimLockKey = (parts: string[]): number => createHash("sha256").update(JSON.stringify(parts)).digest().readInt32BE(0);

/** Serializes, across processes, the look-then-insert of one claim until the transaction ends. */
export async function lockClaim(tx: DbTx, parts: string[]): Promise<void> {
  await tx.$executeRaw`SELECT pg_advisory_xact_lock(${CLAIM_LOCK_CLASS}::int, ${claimLockKey(parts)}::int)`;
}

