// GET /metrics – this process's Prometheus metrics (text exposition format). A scraper sends
// `Authorization: Bearer $METRICS_TOKEN`; without that token (or when it is unset) an ADMIN's personal API
// token or console session is required (server/metrics/metrics-auth.ts says why there is no network allowance).
import type { NextRequest } from "next/server";
import { apiRoute, requestIdOf } from "@/app/_lib/api";
import { getGateway } from "@/app/_lib/gateway";
import { bearerMatches } from "@/server/metrics/metrics-auth";

export const dynamic = "force-dynamic";

// Through the gateway instance (on globalThis): the same metrics module the pipeline reports to, whichever
// bundle this route was loaded from.
async function scrape(requestId: string): Promise<Response> {
  const m = getGateway().metrics();
  return new Response(await m.scrape(), {
    headers: { "content-type": m.contentType, "cache-control": "no-store", "x-request-id": requestId },
  });
}

const asAdmin = apiRoute("ADMIN", ({ ctx }) => scrape(ctx.requestId));

export function GET(req: NextRequest, args: Parameters<typeof asAdmin>[1]): Promise<Response> {
  if (bearerMatches(req.headers.get("authorization"), getGateway().config.metricsToken ?? undefined)) return scrape(requestIdOf(req));
  return asAdmin(req, args);
}
