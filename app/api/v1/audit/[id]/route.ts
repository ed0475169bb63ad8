// GET /api/v1/audit/{id} – one audit event with the story of its request: its events and those of the linked
// approval and task, oldest first, and summaries of both (admins)
import { apiRoute } from "@/app/_lib/api";
import { getGateway } from "@/app/_lib/gateway";

export const GET = apiRoute<{ id: string }>("ADMIN", async ({ params }) => getGateway().audit.get(params.id));
