// GET /oauth/upstream-client.json – Portcullis's client ID metadata document as an OAuth client of upstream servers
import { NextResponse } from "next/server";
import { getGateway } from "@/app/_lib/gateway";

export const dynamic = "force-dynamic";

export function GET(): Response {
  return NextResponse.json(getGateway().upstreamAuth().clientDocument(), { headers: { "cache-control": "public, max-age=300" } });
}
