// GET /api/v1/servers/{slug} – a server and its tools · PATCH – change, rate limit, canary, promote, roll back, restart · DELETE – remove (admin)
import { apiRoute, readJson } from "@/app/_lib/api";
import { getGateway } from "@/app/_lib/gateway";
import { ZUpdateServer } from "@/lib/schemas";

type P = { slug: string };

export const GET = apiRoute<P>("ADMIN", async ({ params }) => getGateway().registry.get(params.slug));

export const PATCH = apiRoute<P>("ADMIN", async ({ req, ctx, params }) =>
  getGateway().registry.update(ctx, params.slug, await readJson(req, ZUpdateServer)),
);

export const DELETE = apiRoute<P>("ADMIN", async ({ ctx, params }) => getGateway().registry.remove(ctx, params.slug));
