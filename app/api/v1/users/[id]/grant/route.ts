// GET /api/v1/users/{id}/grant – a user's effective grant: patterns with where they come from, callable tools (admin)
import { apiRoute } from "@/app/_lib/api";
import { getGateway } from "@/app/_lib/gateway";

export const GET = apiRoute<{ id: string }>("ADMIN", async ({ params }) => getGateway().policy.effectiveGrant(params.id));
