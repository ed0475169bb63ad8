// DELETE /api/v1/sessions/{id} – revoke an agent session (own, or any for admins); refused on the next call everywhere
import { apiRoute } from "@/app/_lib/api";
import { getGateway } from "@/app/_lib/gateway";

export const DELETE = apiRoute<{ id: string }>("USER", async ({ ctx, params }) => getGateway().sessions.revoke(ctx, params.id));
