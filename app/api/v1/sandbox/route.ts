// GET /api/v1/sandbox – the isolation profiles this host can run, the default for a new server, and how memory limits are enforced (admin)
import { apiRoute } from "@/app/_lib/api";
import { getGateway } from "@/app/_lib/gateway";

export const GET = apiRoute("ADMIN", async () => getGateway().sandbox.support());
