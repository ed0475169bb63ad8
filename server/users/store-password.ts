import { recordAudit } from "../audit/record-audit";
import type { RequestContext } from "../context";
import type { DbTx, User } from "../db/client";
import { publishChange } from "../events/change-bus";


/**
 * Stores a new password hash for a user whose row the caller has locked, audits it (never the password) and
 * tells every gateway process. A new hash also ends the user's console sessions (see password-stamp.ts).
 */
export async function storePassword(
  tx: DbTx,
  ctx: RequestContext,
  user: Pick<User, "id" | "email">,
  passwordHash: string,
  action: "user.password_changed" | "user.password_reset",
  details: Record<string, unknown> = {},
): Promise<User> {
  const after = await tx.user.update({ where: { id: user.id }, data: { passwordHash } });
  await recordAudit(tx, ctx, { action, category: "security", targetType: "user", targetId: user.id, details: { email: user.email, ...details } });
  await publishChange(tx, { kind: "user", userId: user.id });
  return after;
}
