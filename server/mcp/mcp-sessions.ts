// MCP protocol sessions live in PostgreSQL, so a session started on one gateway process continues on any.
import { createHash, randomBytes } from "node:crypto";
import { toJson, type Db, type McpSession } from "../db/client";

const TOUCH_EVERY_MS = 30_000;

export function newSessionId(): string {
  return randomBytes(24).toString("base64url");
}

/** A stable 0–99 bucket for canary routing, from the agent session (or the MCP session without one). */
export function canaryBucket(key: string): number {
  return createHash("sha256").update(key).digest().readUInt16BE(0) % 100;
}

export async function createMcpSession(
  db: Db,
  data: { id: string; userId: string; endpoint: string; protocolVersion: string; clientInfo: unknown; capabilities: unknown },
): Promise<McpSession> {
  return db.mcpSession.create({
    data: {
      id: data.id,
      endpoint: data.endpoint,
      protocolVersion: data.protocolVersion,
      userId: data.userId,
      clientInfo: toJson(data.clientInfo ?? {}),
      capabilities: toJson(data.capabilities ?? {}),
    },
  });
}

/** The open session with this id that belongs to `userId` on `endpoint`, or null. */
export async function findMcpSession(db: Db, id: string, userId: string, endpoint: string): Promise<McpSession | null> {
  const s = await db.mcpSession.findUnique({ where: { id } });
  if (!s || s.closedAt || s.endpoint !== endpoint || s.userId !== userId) return null;
  if (Date.now() - s.lastSeenAt.getTime() > TOUCH_EVERY_MS) {
    await db.mcpSession.update({ where: { id }, data: { lastSeenAt: new Date() } });
  }
  return s;
}

export async function closeMcpSession(db: Db, id: string): Promise<void> {
  await db.mcpSession.update({ where: { id }, data: { closedAt: new Date() } });
}
