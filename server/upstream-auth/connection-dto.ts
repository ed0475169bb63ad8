// Connections as the REST API answers them: never a token, never a secret id.
import type { TConnection } from "../../lib/upstream-auth-schemas";

export const CONNECTION_DTO_SELECT = {
  id: true,
  serverId: true,
  userId: true,
  status: true,
  issuer: true,
  account: true,
  scopes: true,
  expiresAt: true,
  lastUsedAt: true,
  createdAt: true,
  lastError: true,
  server: { select: { slug: true, name: true } },
} as const;

type Row = {
  id: string;
  serverId: string;
  userId: string | null;
  status: string;
  issuer: string;
  account: string | null;
  scopes: string[];
  expiresAt: Date | null;
  lastUsedAt: Date | null;
  createdAt: Date;
  lastError: string | null;
  server: { slug: string; name: string };
};

export function connectionDto(r: Row): TConnection {
  return {
    id: r.id,
    serverId: r.serverId,
    serverSlug: r.server.slug,
    serverName: r.server.name,
    mode: r.userId ? "per_user" : "shared",
    status: r.status === "connected" ? "connected" : "needs_reconnect",
    issuer: r.issuer,
    account: r.account,
    scopes: r.scopes,
    expiresAt: r.expiresAt?.toISOString() ?? null,
    lastUsedAt: r.lastUsedAt?.toISOString() ?? null,
    connectedAt: r.createdAt.toISOString(),
    lastError: r.lastError,
  };
}
