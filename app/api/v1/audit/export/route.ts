// GET /api/v1/audit/export?format=csv|jsonl&<filters> – every event of the filter as a download, streamed page by
// page (admins; the export itself is audited as audit.exported)
import { apiRoute, readQuery } from "@/app/_lib/api";
import { getGateway } from "@/app/_lib/gateway";
import { ZAuditExportQuery } from "@/lib/audit-schemas";

export const dynamic = "force-dynamic";

export const GET = apiRoute("ADMIN", async ({ req, ctx }) => {
  const q = readQuery(req, ZAuditExportQuery);
  const body = await getGateway().audit.export(ctx, q);
  const stamp = new Date().toISOString().replace(/[:.]/g, "-").slice(0, 19);
  return new Response(body, {
    headers: {
      "content-type": q.format === "csv" ? "text/csv; charset=utf-8" : "application/x-ndjson; charset=utf-8",
      "content-disposition": `attachment; filename="portcullis-audit-${stamp}.${q.format}"`,
      "cache-control": "no-store",
      "x-content-type-options": "nosniff",
    },
  });
});
