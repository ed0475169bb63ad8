// GET /api/v1/approvals – approval requests (approvers and admins: everyone's; users: their own), filtered by status, kind, tool, requester and dates; pending-only lists oldest first, others newest first
import { apiRoute, readQuery } from "@/app/_lib/api";
import { getGateway } from "@/app/_lib/gateway";
import { ZApprovalQuery } from "@/lib/approval-schemas";

export const GET = apiRoute("USER", async ({ req, user }) =>
  getGateway().approvals.list({ userId: user.id, role: user.role }, readQuery(req, ZApprovalQuery)),
);
