// GET /api/v1/tasks/{id}/webhooks – the delivery log of a task's completion webhook (404 for others' tasks)
import { apiRoute } from "@/app/_lib/api";
import { getGateway } from "@/app/_lib/gateway";

export const GET = apiRoute<{ id: string }>("USER", async ({ user, params }) => ({
  items: await getGateway().tasks.webhooks({ userId: user.id, role: user.role }, params.id),
}));
