// The public shape of a user: never the password hash.
import type { TUser } from "../../lib/schemas";
import type { User } from "../db/client";

export function toUserDto(u: User): TUser {
  return {
    id: u.id,
    email: u.email,
    name: u.name,
    role: u.role,
    disabled: u.disabled,
    createdAt: u.createdAt.toISOString(),
    lastLoginAt: u.lastLoginAt?.toISOString() ?? null,
  };
}
