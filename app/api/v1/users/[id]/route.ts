// GET /api/v1/users/{id} – one user (admin) · PATCH /api/v1/users/{id} – change name, role, password, disabled (admin)
import { apiRoute, readJson } from "@/app/_lib/api";
import { getGateway } from "@/app/_lib/gateway";
import { ZUpdateUser } from "@/lib/schemas";
import { notFound } from "@/server/errors";
import { toUserDto } from "@/server/users/user-dto";

type P = { id: string };

export const GET = apiRoute<P>("ADMIN", async ({ params }) => {
  const user = await getGateway().users.getById(params.id);
  if (!user) throw notFound(`User ${params.id}`);
  return toUserDto(user);
});

export const PATCH = apiRoute<P>("ADMIN", async ({ req, ctx, params }) =>
  getGateway().users.update(ctx, params.id, await readJson(req, ZUpdateUser)),
);
