// GET /api/v1/me/grant – what the caller holds (tool and path grants) and the tools that lets them call
import { apiRoute } from "@/app/_lib/api";
import { getGateway } from "@/app/_lib/gateway";

export const GET = apiRoute("USER", async ({ user }) => getGateway().policy.effectiveGrant(user.id));
