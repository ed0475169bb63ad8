// GET /api/v1/policy/tools – every tool with its risk tier and rule count (admin)
import { apiRoute } from "@/app/_lib/api";
import { getGateway } from "@/app/_lib/gateway";

export const GET = apiRoute("ADMIN", async () => ({ items: await getGateway().policy.tools() }));
