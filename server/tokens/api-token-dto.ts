import type { TApiToken } from "../../lib/schemas";
import type { ApiToken } from "../db/client";

export function toApiTokenDto(t: ApiToken): TApiToken {
  return {
    id: t.id,
    name: t.name,
    prefix: t.prefix,
    createdAt: t.createdAt.toISOString(),
    lastUsedAt: t.lastUsedAt?.toISOString() ?? null,
    expiresAt: t.expiresAt?.toISOString() ?? null,
    revokedAt: t.revokedAt?.toISOString() ?? null,
  };
}
