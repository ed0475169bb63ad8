// GET /api/v1/settings/sessions – default and maximum agent session lifetime · PATCH – change them (admin)
import { apiRoute, readJson } from "@/app/_lib/api";
import { getGateway } from "@/app/_lib/gateway";
import { ZSessionSettings } from "@/lib/policy-schemas";

export const GET = apiRoute("USER", async () => getGateway().sessions.settings());

export const PATCH = apiRoute("ADMIN", async ({ req, ctx }) => getGateway().sessions.updateSettings(ctx, await readJson(req, ZSessionSettings)));
