// GET /api/v1/tools/{name} – one tool with schemas, lint findings, tier and settings · PATCH – enable/disable, strict arguments, timeout, rate limit, risk tier (admin)
import { apiRoute, readJson } from "@/app/_lib/api";
import { getGateway } from "@/app/_lib/gateway";
import { ZUpdateTool } from "@/lib/schemas";

type P = { name: string };

export const GET = apiRoute<P>("ADMIN", async ({ params }) => getGateway().registry.getTool(decodeURIComponent(params.name)));

export const PATCH = apiRoute<P>("ADMIN", async ({ req, ctx, params }) =>
  getGateway().registry.updateTool(ctx, decodeURIComponent(params.name), await readJson(req, ZUpdateTool)),
);
