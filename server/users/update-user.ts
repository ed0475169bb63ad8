import { ZUpdateUser, type TUpdateUser, type TUser } from "../../lib/schemas";
import { recordAudit } from "../audit/record-audit";
import { hashPassword } from "../auth/password";
import { actorUserId, type RequestContext } from "../context";
import type { Db } from "../db/client";
import { GatewayError, notFound } from "../errors";
import { publishChange } from "../events/change-bus";
import { revokePendingTasks } from "../tasks/revoke-task";
import { toUserDto } from "./user-dto";

/**
 * Changes a user's name, role, password or disabled flag, and tells every gateway process (a NOTIFY sent on
 * commit). The last active admin cannot be demoted.
 */
export async function updateUser(db: Db, ctx: RequestContext, id: string, input: TUpdateUser): Promise<TUser> {
  const patch = ZUpdateUser.parse(input);
  const passwordHash = patch.password ? await hashPassword(patch.password) : undefined;
  return db.$transaction(async (tx) => {
    const before = await tx.user.findUnique({ where: { id } });
    if (!before) throw notFound(`User ${id}`);
    const losesAdmin =
      before.role === "ADMIN" && !before.disabled && ((patch.role && patch.role !== "ADMIN") || patch.disabled === true);
    if (losesAdmin) {
      // Lock the active admins so two concurrent demotions cannot both see "another admin is left".
      const admins = (await tx.$queryRaw<{ id: string }[]>`SELECT id FROM users WHERE role = 'ADMIN' AND disabled = false FOR UPDATE`).length;
      if (admins <= 1) throw new GatewayError("conflict", "This is the last active admin; make another admin first.");
    }
    if (patch.disabled === true && actorUserId(ctx) === id) {
      throw new GatewayError("conflict", "You cannot disable your own account.");
    }
    const after = await tx.user.update({
      where: { id },
      data: {
        ...(patch.name !== undefined && { name: patch.name }),
        ...(patch.role !== undefined && { role: patch.role }),
        ...(patch.disabled !== undefined && { disabled: patch.disabled }),
        ...(passwordHash !== undefined && { passwordHash }),
      },
    });
    const changes: Record<string, { from: unknown; to: unknown }> = {};
    if (patch.role !== undefined && patch.role !== before.role) changes.role = { from: before.role, to: patch.role };
    if (patch.disabled !== undefined && patch.disabled !== before.disabled)
      changes.disabled = { from: before.disabled, to: patch.disabled };
    if (patch.name !== undefined && patch.name !== before.name) changes.name = { from: before.name, to: patch.name };
    if (passwordHash) changes.password = { from: "…", to: "…" };
    await recordAudit(tx, ctx, {
      action: changes.role ? "user.role_changed" : "user.updated",
      targetType: "user",
      targetId: id,
      details: { email: after.email, changes } as never,
    });
    // A disabled user's queued calls end now, on every process: a worker claims only PENDING rows.
    if (patch.disabled === true && !before.disabled) await revokePendingTasks(tx, { ownerId: id }, "The user was disabled before this task ran.");
    // Every gateway process drops its cached view of the user (role, disabled) when this commits.
    await publishChange(tx, { kind: "user", userId: id });
    return toUserDto(after);
  });
}
