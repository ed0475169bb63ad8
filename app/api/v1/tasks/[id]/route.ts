// GET /api/v1/tasks/{id} – one task with its arguments, events and a preview of its result (404 for others' tasks)
import { apiRoute } from "@/app/_lib/api";
import { getGateway } from "@/app/_lib/gateway";

export const GET = apiRoute<{ id: string }>("USER", async ({ user, params }) =>
  getGateway().tasks.get({ userId: user.id, role: user.role }, params.id),
);
