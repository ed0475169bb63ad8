import { ZChangeOwnPassword, type TChangeOwnPassword, type TUser } from "../../lib/schemas";
import type { LoginLimiter } from "../auth/login-limiter";
import { hashPassword, verifyPassword } from "../auth/password";
import type { RequestContext } from "../context";
import type { Db } from "../db/client";
import { GatewayError, notFound } from "../errors";
import { storePassword } from "./store-password";
import { toUserDto } from "./user-dto";

/**
 * A user changes their own password, proving the current one. A wrong current password costs one of the
 * e-mail's sign-in tries (so a left-open session cannot be used to guess it); the right one gives them back.
 */
export async function changeOwnPassword(
  db: Db,
  limiter: Pick<LoginLimiter, "take" | "reset">,
  ctx: RequestContext,
  userId: string,
  input: TChangeOwnPassword,
): Promise<TUser> {
  const { currentPassword, newPassword } = ZChangeOwnPassword.parse(input);
  const owner = await db.user.findUnique({ where: { id: userId }, select: { email: true } });
  if (!owner) throw notFound(`User ${userId}`);
  const wait = await limiter.take(owner.email);
  if (wait > 0) {
    throw new GatewayError("rate_limited", `Too many wrong passwords. Try again in ${wait} s.`, undefined, { retryAfterSeconds: wait });
  }
  const newHash = await hashPassword(newPassword);
  const user = await db.$transaction(async (tx) => {
    // Locked, so two changes racing with the same current password cannot both succeed.
    const [row] = await tx.$queryRaw<{ id: string; email: string; password_hash: string }[]>`
      SELECT id, email, "passwordHash" AS password_hash FROM users WHERE id = ${userId} FOR UPDATE`;
    if (!row) throw notFound(`User ${userId}`);
    if (!(await verifyPassword(currentPassword, row.password_hash))) {
      throw new GatewayError("validation_failed", "The current password is wrong.", [
        { path: "currentPassword", message: "is not your current password" },
      ]);
    }
    return storePassword(tx, ctx, row, newHash, "user.password_changed");
  });
  await limiter.reset(owner.email);
  return toUserDto(user);
}
