// GET /api/v1/codemode/types?agentSessionId= – TypeScript declarations of what a program may call, for the editor
import { apiRoute, readQuery } from "@/app/_lib/api";
import { getGateway } from "@/app/_lib/gateway";
import { ZCodeTypesQuery } from "@/lib/codemode-schemas";

export const GET = apiRoute("USER", async ({ req, ctx }) =>
  getGateway().codeMode.types(ctx, readQuery(req, ZCodeTypesQuery).agentSessionId || null),
);
