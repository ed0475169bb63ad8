// POST /api/v1/oauth/clients/unblock – let a blocked OAuth client authorize again (admins)
import { apiRoute, readJson } from "@/app/_lib/api";
import { ZUnblockClient } from "@/lib/oauth-schemas";
import { oauthServerOrNotFound } from "@/app/_lib/oauth-server-or-not-found";

export const POST = apiRoute("ADMIN", async ({ req, ctx }) => {
  const body = await readJson(req, ZUnblockClient);
  return oauthServerOrNotFound().clients.unblock(ctx, body.clientId);
});
