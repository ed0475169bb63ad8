// GET /api/v1/approvals/{id} – one approval request with its decisions and the tool's input schema (404 for a user's view of another's request)
import { apiRoute } from "@/app/_lib/api";
import { getGateway } from "@/app/_lib/gateway";

export const GET = apiRoute<{ id: string }>("USER", async ({ user, params }) =>
  getGateway().approvals.get({ userId: user.id, role: user.role }, params.id),
);
