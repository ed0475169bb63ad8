// POST /api/v1/approvals/{id}/reveal – the request's full, unredacted arguments (approvers; every reveal is audited)
import { apiRoute } from "@/app/_lib/api";
import { getGateway } from "@/app/_lib/gateway";

export const POST = apiRoute<{ id: string }>("APPROVER", async ({ ctx, user, params }) =>
  getGateway().approvals.reveal(ctx, { userId: user.id, role: user.role }, params.id),
);
