// GET /api/v1/servers/{slug}/reviews/{id} – one version as a review: diff, description diffs, scanner findings (admin)
import { apiRoute } from "@/app/_lib/api";
import { getGateway } from "@/app/_lib/gateway";

export const GET = apiRoute<{ slug: string; id: string }>("ADMIN", async ({ params }) => getGateway().registry.review(params.slug, params.id));
