// GET /api/v1/servers/{slug}/auth – a server's upstream auth mode and state (admin; {slug}: slug or id) · PUT – change it
import { apiRoute, readJson } from "@/app/_lib/api";
import { getGateway } from "@/app/_lib/gateway";
import { ZPutServerAuth } from "@/lib/upstream-auth-schemas";

type P = { slug: string };

export const GET = apiRoute<P>("ADMIN", async ({ params }) => getGateway().upstreamAuth().serverAuth(params.slug));

export const PUT = apiRoute<P>("ADMIN", async ({ req, ctx, params }) => getGateway().upstreamAuth().updateServerAuth(ctx, params.slug, await readJson(req, ZPutServerAuth)));
