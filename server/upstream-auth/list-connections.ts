// GET /api/v1/connections (the signed-in user's own) and GET /api/v1/servers/{id}/connections (admins).
import type { TConnectionList } from "../../lib/upstream-auth-schemas";
import type { Db } from "../db/client";
import { CONNECTION_DTO_SELECT, connectionDto } from "./connection-dto";

export async function listMyConnections(db: Db, userId: string): Promise<TConnectionList> {
  const [rows, perUser] = await Promise.all([
    db.upstreamConnection.findMany({ where: { userId }, select: CONNECTION_DTO_SELECT, orderBy: { createdAt: "asc" } }),
    db.upstreamServer.findMany({ where: { authMode: "per_user", enabled: true }, select: { id: true, slug: true, name: true }, orderBy: { slug: "asc" } }),
  ]);
  const connected = new Set(rows.map((r) => r.serverId));
  return {
    connections: rows.map(connectionDto),
    available: perUser.filter((s) => !connected.has(s.id)).map((s) => ({ serverId: s.id, serverSlug: s.slug, serverName: s.name })),
  };
}

export async function listServerConnections(db: Db, serverId: string) {
  const rows = await db.upstreamConnection.findMany({ where: { serverId }, select: { ...CONNECTION_DTO_SELECT, user: { select: { email: true } } }, orderBy: { createdAt: "asc" } });
  return { connections: rows.map((r) => ({ ...connectionDto(r), userEmail: r.user?.email ?? null })) };
}
