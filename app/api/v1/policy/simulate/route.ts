// POST /api/v1/policy/simulate – the decision for a call (whitelist, tier, rules, schema) without making it (admin)
import { apiRoute, readJson } from "@/app/_lib/api";
import { getGateway } from "@/app/_lib/gateway";
import { ZSimulateRequest } from "@/lib/policy-schemas";

export const POST = apiRoute("ADMIN", async ({ req }) => getGateway().policy.simulate(await readJson(req, ZSimulateRequest)));
