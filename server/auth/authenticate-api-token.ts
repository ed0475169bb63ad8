import type { Db, User } from "../db/client";
import { GatewayError } from "../errors";
import { hashToken, tokenKind } from "./token-format";

const TOUCH_EVERY_MS = 60_000;

/** Resolves a personal API token to its user, or throws `invalid_token` with the reason. */
export async function authenticateApiToken(db: Db, token: string): Promise<User> {
  if (tokenKind(token) !== "api") {
    throw new GatewayError("invalid_token", "The bearer token is malformed; expected a personal API token (pct_…).");
  }
  const row = await db.apiToken.findUnique({ where: { tokenHash: hashToken(token) }, include: { user: true } });
  if (!row) throw new GatewayError("invalid_token", "The API token is unknown.");
  if (row.revokedAt) throw new GatewayError("invalid_token", "The API token was revoked.");
  if (row.expiresAt && row.expiresAt <= new Date()) throw new GatewayError("invalid_token", "The API token has expired.");
  if (row.user.disabled) throw new GatewayError("invalid_token", "The token's user is disabled.");
  if (!row.lastUsedAt || Date.now() - row.lastUsedAt.getTime() > TOUCH_EVERY_MS) {
    await db.apiToken.update({ where: { id: row.id }, data: { lastUsedAt: new Date() } });
  }
  return row.user;
}
