// GET /api/v1/oauth/clients – the OAuth clients (registered and metadata-document), their sessions and blocks (admins)
import { apiRoute } from "@/app/_lib/api";
import { oauthServerOrNotFound } from "@/app/_lib/oauth-server-or-not-found";

export const GET = apiRoute("ADMIN", async () => oauthServerOrNotFound().clients.list());
