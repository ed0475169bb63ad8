// Request contexts and users for integration tests: who is asking, without going through a login.
import type { RequestContext } from "../context";
import type { Db, User } from "../db/client";
import { hashPassword } from "../auth/password";

export function userContext(
  user: Pick<User, "id" | "email" | "role">,
  via: RequestContext["via"] = "session",
): RequestContext {
  return {
    actor: { type: "user", userId: user.id, email: user.email, role: user.role },
    requestId: crypto.randomUUID(),
    via,
  };
}

let seq = 0;
// scrypt is deliberately slow; hash each test password once per file.
const hashes = new Map<string, Promise<string>>();
const hashOnce = (password: string) => {
  let h = hashes.get(password);
  if (!h) hashes.set(password, (h = hashPassword(password)));
  return h;
};

/** Inserts a user directly (no audit row), with a unique e-mail unless one is given. */
export async function insertUser(
  db: Db,
  opts: { role?: User["role"]; email?: string; password?: string; disabled?: boolean } = {},
): Promise<User> {
  seq += 1;
  return db.user.create({
    data: {
      email: opts.email ?? `user${seq}-${Date.now()}@example.test`,
      role: opts.role ?? "USER",
      disabled: opts.disabled ?? false,
      passwordHash: await hashOnce(opts.password ?? "correct horse battery"),
    },
  });
}
