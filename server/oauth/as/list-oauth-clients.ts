// The admin's view of OAuth clients: those registered by DCR (Client rows in oauth_records) and those seen
// through the agent sessions their consents created (agentId `oauth:<client_id>`, which is how clients known by
// a metadata document URL appear: they are never stored), and every blocked one, with its block.
import type { TOAuthClient } from "../../../lib/oauth-schemas";
import type { Db } from "../../db/client";

export const OAUTH_AGENT_PREFIX = "oauth:";
const MAX_CLIENTS = 500;

export async function listOAuthClients(db: Db, now = new Date()): Promise<TOAuthClient[]> {
  const [registered, used, active, blocks] = await Promise.all([
    db.oAuthRecord.findMany({ where: { model: "Client", OR: [{ expiresAt: null }, { expiresAt: { gt: now } }] }, orderBy: { createdAt: "desc" }, take: MAX_CLIENTS, select: { id: true, payload: true, createdAt: true } }),
    db.agentSession.groupBy({ by: ["agentId"], where: { agentId: { startsWith: OAUTH_AGENT_PREFIX } }, _max: { lastUsedAt: true } }),
    db.agentSession.groupBy({ by: ["agentId"], where: { agentId: { startsWith: OAUTH_AGENT_PREFIX }, revokedAt: null, expiresAt: { gt: now } }, _count: { _all: true } }),
    db.oAuthBlockedClient.findMany({ take: MAX_CLIENTS }),
  ]);
  const clients = new Map<string, TOAuthClient>();
  const entry = (clientId: string): TOAuthClient => {
    let c = clients.get(clientId);
    if (!c) {
      c = { clientId, kind: /^https:\/\//.test(clientId) ? "metadata_document" : "registered", name: clientId, redirectUris: [], registeredAt: null, activeSessions: 0, lastUsedAt: null, blocked: null };
      clients.set(clientId, c);
    }
    return c;
  };
  for (const row of registered) {
    const payload = row.payload as { client_name?: unknown; redirect_uris?: unknown };
    Object.assign(entry(row.id), {
      kind: "registered",
      name: typeof payload.client_name === "string" && payload.client_name ? payload.client_name : row.id,
      redirectUris: Array.isArray(payload.redirect_uris) ? payload.redirect_uris.filter((u): u is string => typeof u === "string") : [],
      registeredAt: row.createdAt.toISOString(),
    });
  }
  for (const u of used) entry(u.agentId.slice(OAUTH_AGENT_PREFIX.length)).lastUsedAt = u._max.lastUsedAt?.toISOString() ?? null;
  for (const a of active) entry(a.agentId.slice(OAUTH_AGENT_PREFIX.length)).activeSessions = a._count._all;
  for (const b of blocks) entry(b.clientId).blocked = { blockedAt: b.blockedAt.toISOString(), blockedBy: b.blockedBy, reason: b.reason };
  // Blocked first, then the most recently used or registered.
  const recency = (c: TOAuthClient) => c.lastUsedAt ?? c.registeredAt ?? "";
  return [...clients.values()].sort((a, b) => Number(!!b.blocked) - Number(!!a.blocked) || recency(b).localeCompare(recency(a)));
}
