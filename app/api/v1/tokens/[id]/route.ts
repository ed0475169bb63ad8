// DELETE /api/v1/tokens/{id} – revoke a personal API token (own, or any for admins)
import { apiRoute } from "@/app/_lib/api";
import { getGateway } from "@/app/_lib/gateway";

export const DELETE = apiRoute<{ id: string }>("USER", async ({ ctx, params }) => getGateway().tokens.revoke(ctx, params.id));
