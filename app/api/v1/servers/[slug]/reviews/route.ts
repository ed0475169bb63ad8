// GET /api/v1/servers/{slug}/reviews – the server's definitions waiting for review, newest first (admin)
import { apiRoute } from "@/app/_lib/api";
import { getGateway } from "@/app/_lib/gateway";

export const GET = apiRoute<{ slug: string }>("ADMIN", async ({ params }) => ({ items: await getGateway().registry.reviews(params.slug) }));
