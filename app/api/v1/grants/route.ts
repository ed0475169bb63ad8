// GET /api/v1/grants – tool and path grants to roles and users · POST – add one (admin)
import { NextResponse } from "next/server";
import { apiRoute, readJson, readQuery } from "@/app/_lib/api";
import { getGateway } from "@/app/_lib/gateway";
import { ZCreateGrant, ZGrantQuery } from "@/lib/policy-schemas";

export const GET = apiRoute("ADMIN", async ({ req }) => {
  const q = readQuery(req, ZGrantQuery);
  return { items: await getGateway().policy.listGrants({ userId: q.userId, role: q.role }) };
});

export const POST = apiRoute("ADMIN", async ({ req, ctx }) =>
  NextResponse.json(await getGateway().policy.createGrant(ctx, await readJson(req, ZCreateGrant)), { status: 201 }),
);
