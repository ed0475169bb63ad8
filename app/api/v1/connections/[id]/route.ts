// DELETE /api/v1/connections/{id} – disconnect (own connection; admins any): revoked at the provider, tokens deleted
import { apiRoute } from "@/app/_lib/api";
import { getGateway } from "@/app/_lib/gateway";

export const DELETE = apiRoute<{ id: string }>("USER", async ({ ctx, params }) => {
  await getGateway().upstreamAuth().disconnect(ctx, params.id);
  return new Response(null, { status: 204 });
});
