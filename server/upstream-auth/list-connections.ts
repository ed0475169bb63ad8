// GET /api/v1/connections (the signed-in user's own) and GET /api/v1/servers/{id}/connections (admins).
import type { TConnectionList } from "../../lib/upstream-auth-schemas";
import type { Db } from "../db/client";
import { matchesAny } from "../policy/patterns";
import { CONNECTION_DTO_SELECT, connectionDto } from "./connection-dto";

/**
 * The user's connections, and the per_user servers they could connect: those with a tool the user may call. A
 * server whose tools are not known yet (nobody has connected an account to list them) is offered to admins only,
 * since an admin's account is what lists it.
 */
export async function listMyConnections(db: Db, userId: string): Promise<TConnectionList> {
  const [rows, perUser, user] = await Promise.all([
    db.upstreamConnection.findMany({ where: { userId }, select: CONNECTION_DTO_SELECT, orderBy: { createdAt: "asc" } }),
    db.upstreamServer.findMany({ where: { authMode: "per_user", enabled: true }, select: { id: true, slug: true, name: true, tools: { where: { removedAt: null, enabled: true }, select: { gatewayName: true } } }, orderBy: { slug: "asc" } }),
    db.user.findUnique({ where: { id: userId }, select: { role: true } }),
  ]);
  const patterns = user ? (await db.grant.findMany({ where: { kind: "TOOL", OR: [{ userId }, { role: user.role }] }, select: { pattern: true } })).map((g) => g.pattern) : [];
  const mayConnect = (tools: { gatewayName: string }[]) => (tools.length === 0 ? user?.role === "ADMIN" : tools.some((t) => matchesAny(patterns, t.gatewayName)));
  const connected = new Set(rows.map((r) => r.serverId));
  return {
    connections: rows.map(connectionDto),
    available: perUser.filter((s) => !connected.has(s.id) && mayConnect(s.tools)).map((s) => ({ serverId: s.id, serverSlug: s.slug, serverName: s.name })),
  };
}

export async function listServerConnections(db: Db, serverId: string) {
  const rows = await db.upstreamConnection.findMany({ where: { serverId }, select: { ...CONNECTION_DTO_SELECT, user: { select: { email: true } } }, orderBy: { createdAt: "asc" } });
  return { connections: rows.map((r) => ({ ...connectionDto(r), userEmail: r.user?.email ?? null })) };
}
