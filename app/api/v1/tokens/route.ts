// GET /api/v1/tokens – the caller's personal API tokens · POST /api/v1/tokens – mint one (shown once)
import { NextResponse } from "next/server";
import { apiRoute, readJson } from "@/app/_lib/api";
import { getGateway } from "@/app/_lib/gateway";
import { ZCreateApiToken } from "@/lib/schemas";

export const GET = apiRoute("USER", async ({ user }) => ({ items: await getGateway().tokens.list(user.id) }));

export const POST = apiRoute("USER", async ({ req, ctx, user }) => {
  const body = await readJson(req, ZCreateApiToken);
  return NextResponse.json(await getGateway().tokens.create(ctx, user.id, body), { status: 201 });
});
