// GET /api/v1/servers – list upstream servers (admin) · POST /api/v1/servers – register one and discover its tools (admin)
import { NextResponse } from "next/server";
import { apiRoute, readJson } from "@/app/_lib/api";
import { getGateway } from "@/app/_lib/gateway";
import { ZCreateServer } from "@/lib/schemas";

export const GET = apiRoute("ADMIN", async () => ({ items: await getGateway().registry.list() }));

export const POST = apiRoute("ADMIN", async ({ req, ctx }) => {
  const created = await getGateway().registry.register(ctx, await readJson(req, ZCreateServer));
  return NextResponse.json(created, { status: 201 });
});
