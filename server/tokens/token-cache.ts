// Personal API tokens for the MCP hot path: resolved from a per-process cache, so a tool call reads no token
// row. A revoke (or a user's role or disabled change) on any process drops the entry everywhere through the
// change bus before its answer leaves; the short TTL is the second safety net.
import { hashToken, tokenKind } from "../auth/token-format";
import { checkApiToken, findApiToken, needsTouch, type ApiTokenWithUser } from "../auth/authenticate-api-token";
import type { Db, User } from "../db/client";
import { GatewayError } from "../errors";
import type { ChangeBus } from "../events/change-bus";
import { createInvalidatedCache } from "../events/invalidated-cache";
import type { Logger } from "../logger";

export const TOKEN_CACHE_TTL_MS = 10_000;

export type TokenCache = { authenticate(token: string): Promise<User>; close(): void };

export function createTokenCache(deps: { db: Db; bus: ChangeBus; logger: Logger; ttlMs?: number }): TokenCache {
  const { db, logger } = deps;
  const cache = createInvalidatedCache<ApiTokenWithUser>({
    bus: deps.bus,
    ttlMs: deps.ttlMs ?? TOKEN_CACHE_TTL_MS,
    invalidates: (e) =>
      e.kind === "api_token" ? (_k, row) => row.id === e.tokenId : e.kind === "user" ? (_k, row) => row.userId === e.userId : undefined,
  });

  // lastUsedAt is bookkeeping, not a check: written at most once a minute per token, never awaited by a call.
  function touch(row: ApiTokenWithUser) {
    if (!needsTouch(row.lastUsedAt)) return;
    const now = new Date();
    row.lastUsedAt = now; // the cached row itself: the next call in this minute writes nothing
    db.apiToken
      .update({ where: { id: row.id }, data: { lastUsedAt: now } })
      .catch((err: unknown) => logger.warn({ err, tokenId: row.id }, "could not record when an API token was used"));
  }

  return {
    async authenticate(token) {
      if (tokenKind(token) !== "api") {
        throw new GatewayError("invalid_token", "The bearer token is malformed; expected a personal API token (pct_…).");
      }
      const key = hashToken(token);
      // Only usable tokens are cached: an unknown, revoked or expired token is looked up every time.
      const row = await cache.get(key, async () => {
        const found = await findApiToken(db, token);
        checkApiToken(found);
        return found;
      });
      const user = checkApiToken(row); // again: a cached token may have expired since
      touch(row!);
      return user;
    },
    close: () => cache.close(),
  };
}
