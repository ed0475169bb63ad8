// GET /api/v1/tasks – the caller's tasks, newest first (admins: everyone's unless ?mine=1), filtered by ?status=
import { apiRoute, readQuery } from "@/app/_lib/api";
import { getGateway } from "@/app/_lib/gateway";
import { ZTaskQuery } from "@/lib/task-schemas";

export const GET = apiRoute("USER", async ({ req, user }) =>
  getGateway().tasks.list({ userId: user.id, role: user.role }, readQuery(req, ZTaskQuery)),
);
