// DELETE /api/v1/secrets/{name} – delete a secret (admin); 409 secret_in_use while a server references it
import { apiRoute } from "@/app/_lib/api";
import { getGateway } from "@/app/_lib/gateway";

export const DELETE = apiRoute<{ name: string }>("ADMIN", async ({ ctx, params }) => getGateway().secrets.remove(ctx, params.name));
