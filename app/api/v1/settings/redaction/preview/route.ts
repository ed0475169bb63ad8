// POST /api/v1/settings/redaction/preview – a text as it would be stored now, under the saved settings (admin)
import { apiRoute, readJson } from "@/app/_lib/api";
import { getGateway } from "@/app/_lib/gateway";
import { ZRedactionPreviewInput } from "@/lib/redaction-schemas";

export const POST = apiRoute("ADMIN", async ({ req }) =>
  getGateway().redaction.preview((await readJson(req, ZRedactionPreviewInput)).text),
);
