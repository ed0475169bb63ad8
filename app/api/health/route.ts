// GET /api/health – version and database status (503 when the database is down)
import { NextResponse } from "next/server";
import { requestIdOf } from "@/app/_lib/api";
import { getGateway } from "@/app/_lib/gateway";

export const dynamic = "force-dynamic";

export async function GET(req: Request) {
  const health = await getGateway().health();
  return NextResponse.json(health, { status: health.database.status === "up" ? 200 : 503, headers: { "x-request-id": requestIdOf(req) } });
}
