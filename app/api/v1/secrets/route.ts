// GET /api/v1/secrets – stored secrets: names, dates and the servers that use them, never values (admin)
// POST – store a secret (201) or replace its value (200); audited as secret.created / secret.updated, by name only
import { NextResponse } from "next/server";
import { apiRoute, readJson } from "@/app/_lib/api";
import { getGateway } from "@/app/_lib/gateway";
import { ZPutSecret } from "@/lib/secret-schemas";

export const GET = apiRoute("ADMIN", async () => ({ items: await getGateway().secrets.list() }));

export const POST = apiRoute("ADMIN", async ({ req, ctx }) => {
  const { secret, created } = await getGateway().secrets.put(ctx, await readJson(req, ZPutSecret));
  return NextResponse.json(secret, { status: created ? 201 : 200 });
});
