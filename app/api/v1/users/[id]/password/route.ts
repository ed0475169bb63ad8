// POST /api/v1/users/{id}/password – set a user's password, or generate one returned once (admin)
import { apiRoute, readJson } from "@/app/_lib/api";
import { getGateway } from "@/app/_lib/gateway";
import { ZResetPassword } from "@/lib/schemas";

export const POST = apiRoute<{ id: string }>("ADMIN", async ({ req, ctx, params }) =>
  getGateway().users.resetPassword(ctx, params.id, await readJson(req, ZResetPassword)),
);
