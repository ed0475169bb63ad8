// GET /api/v1/servers/{slug}/connections – who is connected to a server (admin; never tokens)
import { apiRoute } from "@/app/_lib/api";
import { getGateway } from "@/app/_lib/gateway";

export const GET = apiRoute<{ slug: string }>("ADMIN", async ({ params }) => getGateway().upstreamAuth().serverConnections(params.slug));
