// POST /api/v1/approvals/{id}/decision – approve or reject a pending request (403 for your own request, 409 once decided or expired)
import { apiRoute, readJson } from "@/app/_lib/api";
import { getGateway } from "@/app/_lib/gateway";
import { ZApprovalDecisionInput } from "@/lib/approval-schemas";

export const POST = apiRoute<{ id: string }>("APPROVER", async ({ req, ctx, user, params }) =>
  getGateway().approvals.decide(
    ctx,
    { userId: user.id, role: user.role },
    params.id,
    await readJson(req, ZApprovalDecisionInput),
  ),
);
