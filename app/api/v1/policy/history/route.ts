// GET /api/v1/policy/history?tool=&cursor=&limit= – changes to tiers, rules and grants, newest first (admin)
import { apiRoute, readQuery } from "@/app/_lib/api";
import { getGateway } from "@/app/_lib/gateway";
import { ZPolicyHistoryQuery } from "@/lib/policy-schemas";

export const GET = apiRoute("ADMIN", async ({ req }) => getGateway().policy.history(readQuery(req, ZPolicyHistoryQuery)));
