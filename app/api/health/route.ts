// GET /api/health – version and database status (503 when the database is down)
import { NextResponse } from "next/server";
import { getGateway } from "@/app/_lib/gateway";

export const dynamic = "force-dynamic";

export async function GET() {
  const health = await getGateway().health();
  return NextResponse.json(health, { status: health.database.status === "up" ? 200 : 503 });
}
