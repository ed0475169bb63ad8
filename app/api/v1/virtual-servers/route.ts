// GET /api/v1/virtual-servers – the virtual servers · POST – create one (admin)
import { NextResponse } from "next/server";
import { apiRoute, readJson } from "@/app/_lib/api";
import { getGateway } from "@/app/_lib/gateway";
import { ZCreateVirtualServer } from "@/lib/virtual-server-schemas";

export const GET = apiRoute("ADMIN", async () => ({ items: await getGateway().virtualServers.list() }));

export const POST = apiRoute("ADMIN", async ({ req, ctx }) =>
  NextResponse.json(await getGateway().virtualServers.create(ctx, await readJson(req, ZCreateVirtualServer)), { status: 201 }),
);
