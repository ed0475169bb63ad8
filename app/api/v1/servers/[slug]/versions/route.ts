// GET /api/v1/servers/{slug}/versions – the server's versions with their diffs, newest first (admin)
import { apiRoute } from "@/app/_lib/api";
import { getGateway } from "@/app/_lib/gateway";

export const GET = apiRoute<{ slug: string }>("ADMIN", async ({ params }) => ({ items: await getGateway().registry.versions(params.slug) }));
