// GET /api/v1/settings/redaction – what is redacted before audit rows and log lines are stored, and how (admin)
// PUT – replace those settings; every gateway process reloads them (admin, audited as settings.redaction_updated)
import { apiRoute, readJson } from "@/app/_lib/api";
import { getGateway } from "@/app/_lib/gateway";
import { ZRedactionSettings } from "@/lib/redaction-schemas";

export const GET = apiRoute("ADMIN", async () => getGateway().redaction.get());

export const PUT = apiRoute("ADMIN", async ({ req, ctx }) =>
  getGateway().redaction.save(ctx, await readJson(req, ZRedactionSettings)),
);
