// POST /api/v1/me/password – change one's own password (the current one required); ends one's other console sessions
import { apiRoute, readJson } from "@/app/_lib/api";
import { getGateway } from "@/app/_lib/gateway";
import { ZChangeOwnPassword } from "@/lib/schemas";

export const POST = apiRoute("USER", async ({ req, ctx, user }) =>
  getGateway().users.changeOwnPassword(ctx, user.id, await readJson(req, ZChangeOwnPassword)),
);
