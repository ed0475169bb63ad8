// GET /api/v1/tools – every tool with its settings, lint findings and near-duplicate pairs (admin)
import { apiRoute } from "@/app/_lib/api";
import { getGateway } from "@/app/_lib/gateway";

export const GET = apiRoute("ADMIN", async () => getGateway().registry.listTools());
