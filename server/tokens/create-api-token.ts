import type { TApiToken } from "../../lib/schemas";
import { recordAudit } from "../audit/record-audit";
import { mintToken } from "../auth/token-format";
import type { RequestContext } from "../context";
import type { Db } from "../db/client";
import { toApiTokenDto } from "./api-token-dto";

/** Mints a personal API token for `userId`. The token is returned once; only its hash is kept. */
export async function createApiToken(
  db: Db,
  ctx: RequestContext,
  userId: string,
  opts: { name: string; expiresInDays?: number | undefined },
): Promise<{ token: string; apiToken: TApiToken }> {
  const { token, hash, prefix } = mintToken("api");
  const expiresAt = opts.expiresInDays ? new Date(Date.now() + opts.expiresInDays * 86_400_000) : null;
  const row = await db.$transaction(async (tx) => {
    const created = await tx.apiToken.create({ data: { userId, name: opts.name, tokenHash: hash, prefix, expiresAt } });
    await recordAudit(tx, ctx, {
      action: "api_token.created",
      targetType: "api_token",
      targetId: created.id,
      details: { userId, name: opts.name, prefix },
    });
    return created;
  });
  return { token, apiToken: toApiTokenDto(row) };
}
