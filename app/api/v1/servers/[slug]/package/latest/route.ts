// GET /api/v1/servers/{slug}/package/latest – what the package server's range resolves to now, against what it runs (admin)
import { apiRoute } from "@/app/_lib/api";
import { getGateway } from "@/app/_lib/gateway";

export const GET = apiRoute<{ slug: string }>("ADMIN", async ({ params }) => getGateway().registry.packageLatest(params.slug));
