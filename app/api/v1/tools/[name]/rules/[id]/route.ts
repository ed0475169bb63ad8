// DELETE /api/v1/tools/{name}/rules/{id} – remove a parameter rule (admin)
import { apiRoute } from "@/app/_lib/api";
import { getGateway } from "@/app/_lib/gateway";

export const DELETE = apiRoute<{ name: string; id: string }>("ADMIN", async ({ ctx, params }) =>
  getGateway().policy.deleteRule(ctx, decodeURIComponent(params.name), params.id),
);
