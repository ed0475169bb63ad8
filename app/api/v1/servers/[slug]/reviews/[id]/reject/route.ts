// POST /api/v1/servers/{slug}/reviews/{id}/reject – the pending definitions never serve (admin)
import { apiRoute, readJson } from "@/app/_lib/api";
import { getGateway } from "@/app/_lib/gateway";
import { ZRejectDefinitions } from "@/lib/review-schemas";

export const POST = apiRoute<{ slug: string; id: string }>("ADMIN", async ({ req, ctx, params }) =>
  getGateway().registry.rejectDefinitions(ctx, params.slug, params.id, await readJson(req, ZRejectDefinitions)),
);
