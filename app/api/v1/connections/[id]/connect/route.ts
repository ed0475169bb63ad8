// POST /api/v1/connections/{id}/connect – start connecting the caller's own account to the per_user server {id}
import { apiRoute } from "@/app/_lib/api";
import { getGateway } from "@/app/_lib/gateway";

export const POST = apiRoute<{ id: string }>("USER", async ({ user, params }) => getGateway().upstreamAuth().connect(user.id, params.id));
