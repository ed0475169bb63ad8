// GET /api/ready – whether this process should be sent traffic (503 while starting, draining or degraded)
import { NextResponse } from "next/server";
import { requestIdOf } from "@/app/_lib/api";
import { getGateway } from "@/app/_lib/gateway";

export const dynamic = "force-dynamic";

export async function GET(req: Request) {
  const ready = await getGateway().ready();
  return NextResponse.json(ready, { status: ready.status === "ready" ? 200 : 503, headers: { "x-request-id": requestIdOf(req), "cache-control": "no-store" } });
}
