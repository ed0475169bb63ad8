// GET /api/v1/tools/{name}/policy – the rules in force for a tool: who may call it, tier, parameter rules, argument checking, rate limit (admin)
import { apiRoute } from "@/app/_lib/api";
import { getGateway } from "@/app/_lib/gateway";

export const GET = apiRoute<{ name: string }>("ADMIN", ({ params }) => getGateway().toolRulesInForce(decodeURIComponent(params.name)));
