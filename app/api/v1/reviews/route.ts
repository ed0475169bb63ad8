// GET /api/v1/reviews – every server's definitions waiting for review, newest first (admin)
import { apiRoute } from "@/app/_lib/api";
import { getGateway } from "@/app/_lib/gateway";

export const GET = apiRoute("ADMIN", async () => ({ items: await getGateway().registry.reviews() }));
