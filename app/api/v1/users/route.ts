// GET /api/v1/users – list users (admin) · POST /api/v1/users – create a user (admin)
import { NextResponse } from "next/server";
import { apiRoute, readJson, readQuery } from "@/app/_lib/api";
import { getGateway } from "@/app/_lib/gateway";
import { ZCreateUser, ZUserListQuery } from "@/lib/schemas";

export const GET = apiRoute("ADMIN", async ({ req }) => getGateway().users.list(readQuery(req, ZUserListQuery)));

export const POST = apiRoute("ADMIN", async ({ req, ctx }) => {
  const created = await getGateway().users.create(ctx, await readJson(req, ZCreateUser));
  return NextResponse.json(created, { status: 201 });
});
