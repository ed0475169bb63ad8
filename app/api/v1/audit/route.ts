// GET /api/v1/audit – audit events matching the filters, newest first by default, in keyset pages (admins)
import { apiRoute, readQuery } from "@/app/_lib/api";
import { getGateway } from "@/app/_lib/gateway";
import { ZAuditQuery } from "@/lib/audit-schemas";

export const GET = apiRoute("ADMIN", async ({ req }) => getGateway().audit.search(readQuery(req, ZAuditQuery)));
