// GET /api/v1/virtual-servers/{name} – one virtual server · PATCH – change it · DELETE – delete it (admin)
import { apiRoute, readJson } from "@/app/_lib/api";
import { getGateway } from "@/app/_lib/gateway";
import { ZUpdateVirtualServer } from "@/lib/virtual-server-schemas";

type P = { name: string };

export const GET = apiRoute<P>("ADMIN", async ({ params }) => getGateway().virtualServers.get(params.name));

export const PATCH = apiRoute<P>("ADMIN", async ({ req, ctx, params }) => getGateway().virtualServers.update(ctx, params.name, await readJson(req, ZUpdateVirtualServer)));

export const DELETE = apiRoute<P>("ADMIN", async ({ ctx, params }) => getGateway().virtualServers.remove(ctx, params.name));
