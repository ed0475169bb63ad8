// First start: make sure someone can sign in.
import { systemContext } from "../context";
import type { Db } from "../db/client";
import { createUser } from "./create-user";

export type EnsureAdminResult =
  | { kind: "exists" }
  | { kind: "created"; email: string; generatedPassword?: string };

/**
 * With no admin in the database, creates one from ADMIN_EMAIL / ADMIN_PASSWORD; without a password one is
 * generated and returned, for the caller to print once.
 */
export async function ensureAdmin(db: Db, opts: { email?: string | undefined; password?: string | undefined }): Promise<EnsureAdminResult> {
  const admins = await db.user.count({ where: { role: "ADMIN" } });
  if (admins > 0) return { kind: "exists" };
  const email = opts.email ?? "admin@portcullis.local";
  const res = await createUser(db, systemContext("bootstrap"), {
    email,
    name: "Administrator",
    role: "ADMIN",
    ...(opts.password ? { password: opts.password } : {}),
  });
  return res.generatedPassword
    ? { kind: "created", email: res.user.email, generatedPassword: res.generatedPassword }
    : { kind: "created", email: res.user.email };
}
