// POST /api/v1/policy/tiers – set the risk tier of several tools at once (admin)
import { apiRoute, readJson } from "@/app/_lib/api";
import { getGateway } from "@/app/_lib/gateway";
import { ZBulkTier } from "@/lib/policy-schemas";

export const POST = apiRoute("ADMIN", async ({ req, ctx }) => ({ items: await getGateway().policy.bulkTier(ctx, await readJson(req, ZBulkTier)) }));
