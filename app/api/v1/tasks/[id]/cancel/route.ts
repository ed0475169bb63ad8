// POST /api/v1/tasks/{id}/cancel – cancel a pending or running task; answers the task (409 once it has finished)
import { apiRoute } from "@/app/_lib/api";
import { getGateway } from "@/app/_lib/gateway";

export const POST = apiRoute<{ id: string }>("USER", async ({ ctx, user, params }) =>
  getGateway().tasks.cancel(ctx, { userId: user.id, role: user.role }, params.id),
);
