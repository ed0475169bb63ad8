// GET /api/v1/dashboard?window=60 – tool-call traffic of the last minutes, pending approvals and unhealthy
// servers (approvers and admins: the whole gateway; users: their own calls and requests)
import { apiRoute, readQuery } from "@/app/_lib/api";
import { getGateway } from "@/app/_lib/gateway";
import { ZDashboardQuery } from "@/lib/dashboard-schemas";

export const dynamic = "force-dynamic";

export const GET = apiRoute("USER", async ({ req, user }) =>
  getGateway().dashboard({ userId: user.id, role: user.role }, readQuery(req, ZDashboardQuery)),
);
