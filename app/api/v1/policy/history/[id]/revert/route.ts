// POST /api/v1/policy/history/{id}/revert – undo one policy change; answers the new change (409 when it cannot be undone)
import { apiRoute } from "@/app/_lib/api";
import { getGateway } from "@/app/_lib/gateway";

export const POST = apiRoute<{ id: string }>("ADMIN", async ({ ctx, params }) => getGateway().policy.revert(ctx, params.id));
