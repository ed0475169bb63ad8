// GET /api/v1/servers/{slug}/offerings – resources, resource templates and prompts of the serving version,
// and the MCP endpoints that reach them (admin)
import { apiRoute } from "@/app/_lib/api";
import { getGateway } from "@/app/_lib/gateway";

export const GET = apiRoute<{ slug: string }>("ADMIN", async ({ params }) => getGateway().registry.offerings(params.slug));
