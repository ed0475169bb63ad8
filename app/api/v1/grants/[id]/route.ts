// DELETE /api/v1/grants/{id} – remove a grant (admin); sessions lose what it gave on their next call
import { apiRoute } from "@/app/_lib/api";
import { getGateway } from "@/app/_lib/gateway";

export const DELETE = apiRoute<{ id: string }>("ADMIN", async ({ ctx, params }) => getGateway().policy.deleteGrant(ctx, params.id));
