// MCP protocol sessions live in PostgreSQL, so a session started on one gateway process continues on any.
// A gateway process caches the rows it reads (createMcpSessionCache, built once by createGateway and handed
// to the HTTP handler): a call then reads no session row, and a session closed on any process is dropped
// everywhere through the change bus ("session-closed").
import { randomBytes } from "node:crypto";
import { toJson, type Db, type McpSession } from "../db/client";
import type { ChangeBus } from "../events/change-bus";
import { createInvalidatedCache, type InvalidatedCache } from "../events/invalidated-cache";
import type { Logger } from "../logger";

const TOUCH_EVERY_MS = 30_000;
export const SESSION_CACHE_TTL_MS = 10_000;

/** A gateway process's cache of open sessions, handed to the HTTP handler (handle-mcp-request.ts). */
export type McpSessionCache = { rows: InvalidatedCache<McpSession>; logger: Logger; close(): void };

/** Caches the sessions read until the bus says they changed (or for SESSION_CACHE_TTL_MS). */
export function createMcpSessionCache(bus: ChangeBus, logger: Logger, ttlMs = SESSION_CACHE_TTL_MS): McpSessionCache {
  const rows = createInvalidatedCache<McpSession>({
    bus,
    ttlMs,
    invalidates: (e) => (e.kind === "session-closed" ? e.mcpSessionId : undefined),
  });
  return { rows, logger, close: () => rows.close() };
}

export function newSessionId(): string {
  return randomBytes(24).toString("base64url");
}

export { canaryBucket } from "../sessions/canary-bucket";

export async function createMcpSession(
  db: Db,
  data: { id: string; userId: string; agentSessionId: string; endpoint: string; protocolVersion: string; clientInfo: unknown; capabilities: unknown },
): Promise<McpSession> {
  return db.mcpSession.create({
    data: {
      id: data.id,
      endpoint: data.endpoint,
      protocolVersion: data.protocolVersion,
      userId: data.userId,
      agentSessionId: data.agentSessionId,
      clientInfo: toJson(data.clientInfo ?? {}),
      capabilities: toJson(data.capabilities ?? {}),
    },
  });
}

/**
 * The open session with this id that belongs to the agent session `agentSessionId` on `endpoint`, or null
 * (another agent session of the same user cannot continue it). The row may come from this
 * process's cache (`cache`; without one it is read each time): what identifies the session is current, but
 * `state` and `lastSeenAt` may not be — read those from the table.
 */
export async function findMcpSession(db: Db, cache: McpSessionCache | undefined, id: string, agentSessionId: string, endpoint: string): Promise<McpSession | null> {
  // Only open sessions are cached: a closed or unknown one is read again each time.
  const load = async () => {
    const row = await db.mcpSession.findUnique({ where: { id } });
    return row && !row.closedAt ? row : null;
  };
  const s = cache ? await cache.rows.get(id, load) : await load();
  if (!s || s.endpoint !== endpoint || s.agentSessionId !== agentSessionId) return null;
  if (Date.now() - s.lastSeenAt.getTime() > TOUCH_EVERY_MS) {
    const now = new Date();
    const touch = db.mcpSession.update({ where: { id }, data: { lastSeenAt: now } });
    if (!cache) {
      await touch;
    } else {
      // Bookkeeping, not a check: the cached row remembers the touch, and no call waits for it.
      s.lastSeenAt = now;
      touch.catch((err: unknown) => cache.logger.warn({ err, mcpSessionId: id }, "could not record when an MCP session was last seen"));
    }
  }
  return s;
}

export async function closeMcpSession(db: Db, cache: McpSessionCache, id: string): Promise<void> {
  await db.mcpSession.update({ where: { id }, data: { closedAt: new Date() } });
  // Other processes drop it when the caller publishes "session-closed"; this one at once.
  cache.rows.delete(id);
}
