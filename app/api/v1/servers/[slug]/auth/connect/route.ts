// POST /api/v1/servers/{slug}/auth/connect – an admin starts connecting the server's shared account (mode shared)
import { apiRoute } from "@/app/_lib/api";
import { getGateway } from "@/app/_lib/gateway";

export const POST = apiRoute<{ slug: string }>("ADMIN", async ({ user, params }) => getGateway().upstreamAuth().connectShared(user.id, params.slug));
