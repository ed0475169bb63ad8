import { ZCreateUser, type TCreateUser, type TUser } from "../../lib/schemas";
import { recordAudit } from "../audit/record-audit";
import { generatePassword, hashPassword } from "../auth/password";
import type { RequestContext } from "../context";
import type { Db, DbTx } from "../db/client";
import { GatewayError } from "../errors";
import { toUserDto } from "./user-dto";

/** Creates a user; without a password one is generated and returned once. */
export async function createUser(
  db: Db,
  ctx: RequestContext,
  input: TCreateUser,
): Promise<{ user: TUser; generatedPassword?: string }> {
  const data = ZCreateUser.parse(input);
  const generated = data.password ? undefined : generatePassword();
  const passwordHash = await hashPassword(data.password ?? generated!);
  const existing = await db.user.findUnique({ where: { email: data.email }, select: { id: true } });
  if (existing) throw new GatewayError("conflict", `A user with e-mail ${data.email} already exists.`);
  const user = await db.$transaction((tx) => insertNewUser(tx, ctx, data, passwordHash));
  return generated ? { user: toUserDto(user), generatedPassword: generated } : { user: toUserDto(user) };
}

/** The user row and its audit event, in the caller's transaction. */
export async function insertNewUser(tx: DbTx, ctx: RequestContext, data: TCreateUser, passwordHash: string) {
  const created = await tx.user.create({
    data: { email: data.email, name: data.name ?? null, role: data.role ?? "USER", passwordHash },
  });
  await recordAudit(tx, ctx, {
    action: "user.created",
    targetType: "user",
    targetId: created.id,
    details: { email: created.email, role: created.role },
  });
  return created;
}
