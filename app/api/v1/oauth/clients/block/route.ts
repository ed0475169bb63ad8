// POST /api/v1/oauth/clients/block – refuse an OAuth client and revoke its agent sessions (admins)
import { apiRoute, readJson } from "@/app/_lib/api";
import { ZBlockClient } from "@/lib/oauth-schemas";
import { oauthServerOrNotFound } from "@/app/_lib/oauth-server-or-not-found";

export const POST = apiRoute("ADMIN", async ({ req, ctx }) => {
  const body = await readJson(req, ZBlockClient);
  return oauthServerOrNotFound().clients.block(ctx, body.clientId, body.reason);
});
