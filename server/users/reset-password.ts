import { ZResetPassword, type TResetPassword, type TUser } from "../../lib/schemas";
import type { LoginLimiter } from "../auth/login-limiter";
import { generatePassword, hashPassword } from "../auth/password";
import type { RequestContext } from "../context";
import type { Db } from "../db/client";
import { notFound } from "../errors";
import { storePassword } from "./store-password";
import { toUserDto } from "./user-dto";

/**
 * An admin (console, REST or CLI) sets another user's password; without one a password is generated and
 * returned once. The user's failed sign-in count is cleared so a locked-out user can sign in at once.
 */
export async function resetPassword(
  db: Db,
  limiter: Pick<LoginLimiter, "reset">,
  ctx: RequestContext,
  userId: string,
  input: TResetPassword,
): Promise<{ user: TUser; generatedPassword?: string }> {
  const { password } = ZResetPassword.parse(input);
  const generated = password === undefined ? generatePassword() : undefined;
  const newHash = await hashPassword(password ?? generated!);
  const user = await db.$transaction(async (tx) => {
    const [row] = await tx.$queryRaw<{ id: string; email: string }[]>`SELECT id, email FROM users WHERE id = ${userId} FOR UPDATE`;
    if (!row) throw notFound(`User ${userId}`);
    return storePassword(tx, ctx, row, newHash, "user.password_reset", { generated: generated !== undefined });
  });
  await limiter.reset(user.email);
  return generated ? { user: toUserDto(user), generatedPassword: generated } : { user: toUserDto(user) };
}
