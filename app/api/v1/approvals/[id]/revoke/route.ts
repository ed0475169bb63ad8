// POST /api/v1/approvals/{id}/revoke – withdraw a standing approval or an unused grant (approvers), or one's own pending request (409 when nothing is left to withdraw)
import { apiRoute } from "@/app/_lib/api";
import { getGateway } from "@/app/_lib/gateway";

export const POST = apiRoute<{ id: string }>("USER", async ({ ctx, user, params }) =>
  getGateway().approvals.revoke(ctx, { userId: user.id, role: user.role }, params.id),
);
