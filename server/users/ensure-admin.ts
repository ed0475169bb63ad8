// First start: make sure someone can sign in.
import { ZCreateUser } from "../../lib/schemas";
import { generatePassword, hashPassword } from "../auth/password";
import { systemContext } from "../context";
import type { Db } from "../db/client";
import { insertNewUser } from "./create-user";

export type EnsureAdminResult =
  | { kind: "exists" }
  | { kind: "created"; email: string; generatedPassword?: string };

// "pcad": replicas starting together on an empty database make one first admin, not one each (or a failed start).
const FIRST_ADMIN_LOCK_CLASS = 0x70636164;

/**
 * With no admin in the database, creates one from ADMIN_EMAIL / ADMIN_PASSWORD; without a password one is
 * generated and returned, for the caller to print once. The look and the insert are one transaction under an
 * advisory lock, so processes starting at the same moment agree on one admin.
 */
export async function ensureAdmin(db: Db, opts: { email?: string | undefined; password?: string | undefined }): Promise<EnsureAdminResult> {
  if ((await db.user.count({ where: { role: "ADMIN" } })) > 0) return { kind: "exists" };
  const data = ZCreateUser.parse({ email: opts.email ?? "admin@portcullis.local", name: "Administrator", role: "ADMIN", ...(opts.password ? { password: opts.password } : {}) });
  const generated = data.password ? undefined : generatePassword();
  const passwordHash = await hashPassword(data.password ?? generated!);
  const created = await db.$transaction(async (tx) => {
    await tx.$executeRaw`SELECT pg_advisory_xact_lock(${FIRST_ADMIN_LOCK_CLASS}::int, 0)`;
    if ((await tx.user.count({ where: { role: "ADMIN" } })) > 0) return null;
    return insertNewUser(tx, systemContext("bootstrap"), data, passwordHash);
  });
  if (!created) return { kind: "exists" };
  return generated ? { kind: "created", email: created.email, generatedPassword: generated } : { kind: "created", email: created.email };
}
