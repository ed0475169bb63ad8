// POST /api/v1/servers/{slug}/package/upgrade – install another version and start it as the canary version (admin)
import { NextResponse } from "next/server";
import { apiRoute, readJson } from "@/app/_lib/api";
import { getGateway } from "@/app/_lib/gateway";
import { ZPackageUpgrade } from "@/lib/schemas";

export const POST = apiRoute<{ slug: string }>("ADMIN", async ({ req, ctx, params }) => {
  const upgraded = await getGateway().registry.packageUpgrade(ctx, params.slug, await readJson(req, ZPackageUpgrade));
  return NextResponse.json(upgraded, { status: 202 });
});
