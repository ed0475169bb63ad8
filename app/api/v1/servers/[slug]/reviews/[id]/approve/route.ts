// POST /api/v1/servers/{slug}/reviews/{id}/approve – the pending definitions serve (active, or as the canary) (admin)
import { apiRoute, readJson } from "@/app/_lib/api";
import { getGateway } from "@/app/_lib/gateway";
import { ZApproveDefinitions } from "@/lib/review-schemas";

export const POST = apiRoute<{ slug: string; id: string }>("ADMIN", async ({ req, ctx, params }) =>
  getGateway().registry.approveDefinitions(ctx, params.slug, params.id, await readJson(req, ZApproveDefinitions)),
);
