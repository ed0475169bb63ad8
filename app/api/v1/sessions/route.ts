// GET /api/v1/sessions – the caller's agent sessions (admins: everyone's with ?all=1) · POST – create one (token shown once)
import { NextResponse } from "next/server";
import { apiRoute, readJson, readQuery } from "@/app/_lib/api";
import { getGateway } from "@/app/_lib/gateway";
import { ZCreateSession, ZSessionListQuery } from "@/lib/policy-schemas";

export const GET = apiRoute("USER", async ({ req, user }) => {
  const all = readQuery(req, ZSessionListQuery).all === "1" && user.role === "ADMIN";
  return { items: await getGateway().sessions.list(all ? {} : { userId: user.id }) };
});

export const POST = apiRoute("USER", async ({ req, ctx, user }) => {
  const body = await readJson(req, ZCreateSession);
  return NextResponse.json(await getGateway().sessions.create(ctx, user.id, body), { status: 201 });
});
