// POST /api/v1/tools/{name}/call – try a tool from the console; same pipeline and audit as an agent's call (admin)
import { apiRoute, readJson } from "@/app/_lib/api";
import { getGateway } from "@/app/_lib/gateway";
import { ZToolCallRequest } from "@/lib/schemas";

export const POST = apiRoute<{ name: string }>("ADMIN", async ({ req, ctx, params }) => {
  const body = await readJson(req, ZToolCallRequest);
  return getGateway().tryToolCall(ctx, decodeURIComponent(params.name), body.arguments);
});
