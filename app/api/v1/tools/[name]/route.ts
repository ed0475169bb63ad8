// PATCH /api/v1/tools/{name} – enable/disable, strict arguments, timeout, risk tier of a tool (admin)
import { apiRoute, readJson } from "@/app/_lib/api";
import { getGateway } from "@/app/_lib/gateway";
import { ZUpdateTool } from "@/lib/schemas";

export const PATCH = apiRoute<{ name: string }>("ADMIN", async ({ req, ctx, params }) =>
  getGateway().registry.updateTool(ctx, decodeURIComponent(params.name), await readJson(req, ZUpdateTool)),
);
