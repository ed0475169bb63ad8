// GET /api/v1/codemode/types?agentSessionId= – TypeScript declarations of what a program may call, for the editor
import { apiRoute } from "@/app/_lib/api";
import { getGateway } from "@/app/_lib/gateway";

export const GET = apiRoute("USER", async ({ req, ctx }) =>
  getGateway().codeMode.types(ctx, new URL(req.url).searchParams.get("agentSessionId") || null),
);
