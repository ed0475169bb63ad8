import type { ApiToken, Db, User } from "../db/client";
import { GatewayError } from "../errors";
import { hashToken, tokenKind } from "./token-format";

const TOUCH_EVERY_MS = 60_000;

export type ApiTokenWithUser = ApiToken & { user: User };

/** The token row (with its user) for a bearer token, or null when no such token was issued; throws if malformed. */
export async function findApiToken(db: Db, token: string): Promise<ApiTokenWithUser | null> {
  if (tokenKind(token) !== "api") {
    throw new GatewayError("invalid_token", "The bearer token is malformed; expected a personal API token (pct_…).");
  }
  return db.apiToken.findUnique({ where: { tokenHash: hashToken(token) }, include: { user: true } });
}

/** The token's user if the token may be used now; else throws `invalid_token` with the reason. */
export function checkApiToken(row: ApiTokenWithUser | null, now = new Date()): User {
  if (!row) throw new GatewayError("invalid_token", "The API token is unknown.");
  if (row.revokedAt) throw new GatewayError("invalid_token", "The API token was revoked.");
  if (row.expiresAt && row.expiresAt <= now) throw new GatewayError("invalid_token", "The API token has expired.");
  if (row.user.disabled) throw new GatewayError("invalid_token", "The token's user is disabled.");
  return row.user;
}

/** Whether `lastUsedAt` is old enough to be written again (at most once a minute per token). */
export function needsTouch(lastUsedAt: Date | null, now = Date.now()): boolean {
  return !lastUsedAt || now - lastUsedAt.getTime() > TOUCH_EVERY_MS;
}

/**
 * Resolves a personal API token to its user, or throws `invalid_token` with the reason. Reads the database
 * every time (the REST API and the CLI); the MCP endpoints take agent session tokens (sessions/session-auth.ts).
 */
export async function authenticateApiToken(db: Db, token: string): Promise<User> {
  const row = await findApiToken(db, token);
  const user = checkApiToken(row);
  if (needsTouch(row!.lastUsedAt)) {
    await db.apiToken.update({ where: { id: row!.id }, data: { lastUsedAt: new Date() } });
  }
  return user;
}
