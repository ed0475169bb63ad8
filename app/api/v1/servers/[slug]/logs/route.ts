// GET /api/v1/servers/{slug}/logs – the server's recent stderr, redacted (admin)
import { apiRoute } from "@/app/_lib/api";
import { getGateway } from "@/app/_lib/gateway";

type P = { slug: string };

export const GET = apiRoute<P>("ADMIN", async ({ params }) => getGateway().registry.logs(params.slug));
