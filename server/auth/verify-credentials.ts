import { recordAudit } from "../audit/record-audit";
import { systemContext } from "../context";
import type { Db, User } from "../db/client";
import { GatewayError } from "../errors";
import type { LoginLimiter } from "./login-limiter";
import { verifyPassword } from "./password";

// A fixed hash so unknown e-mails cost as much time as known ones.
const DUMMY_HASH = "scrypt$32768$8$1$AAAAAAAAAAAAAAAAAAAAAA$AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA";

/**
 * Checks an e-mail and password. Every try takes one of the e-mail's tries up front; a right password gives
 * them all back. Past the limit every try is refused with `rate_limited` until the window passes, even with
 * the right password.
 */
export async function verifyCredentials(
  db: Db,
  limiter: LoginLimiter,
  input: { email: string; password: string; ip?: string | undefined },
): Promise<User> {
  const email = input.email.trim().toLowerCase();
  const key = email;
  const ctx = { ...systemContext("login"), ip: input.ip };
  const wait = await limiter.take(key);
  if (wait > 0) {
    await recordAudit(db, ctx, { action: "auth.login_blocked", category: "security", status: "denied", errorCode: "rate_limited", details: { email } });
    throw new GatewayError("rate_limited", `Too many failed sign-in attempts. Try again in ${wait} s.`, undefined, {
      retryAfterSeconds: wait,
    });
  }
  const user = await db.user.findUnique({ where: { email } });
  const ok = await verifyPassword(input.password, user?.passwordHash ?? DUMMY_HASH);
  if (!user || !ok || user.disabled) {
    await recordAudit(db, ctx, {
      action: "auth.login_failed",
      category: "security",
      status: "denied",
      errorCode: "unauthenticated",
      details: { email, reason: !user ? "unknown_user" : user.disabled ? "disabled" : "wrong_password" },
    });
    throw new GatewayError("unauthenticated", "Wrong e-mail or password.");
  }
  await limiter.reset(key);
  await db.user.update({ where: { id: user.id }, data: { lastLoginAt: new Date() } });
  await recordAudit(db, { ...ctx, actor: { type: "user", userId: user.id, email: user.email, role: user.role } }, {
    action: "auth.logged_in",
    category: "security",
    targetType: "user",
    targetId: user.id,
  });
  return user;
}
