// GET /api/v1/connections – the caller's upstream connections and the per_user servers they have not connected
import { apiRoute } from "@/app/_lib/api";
import { getGateway } from "@/app/_lib/gateway";

export const GET = apiRoute("USER", async ({ user }) => getGateway().upstreamAuth().listMine(user.id));
