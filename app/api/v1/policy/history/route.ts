// GET /api/v1/policy/history?tool=&cursor=&limit= – changes to tiers, rules and grants, newest first (admin)
import { apiRoute } from "@/app/_lib/api";
import { getGateway } from "@/app/_lib/gateway";

export const GET = apiRoute("ADMIN", async ({ req }) => {
  const q = req.nextUrl.searchParams;
  const limit = Number(q.get("limit") ?? "50");
  return getGateway().policy.history({ cursor: q.get("cursor") ?? undefined, tool: q.get("tool") ?? undefined, limit: Number.isFinite(limit) ? limit : 50 });
});
