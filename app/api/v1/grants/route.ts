// GET /api/v1/grants – tool and path grants to roles and users · POST – add one (admin)
import { NextResponse } from "next/server";
import { apiRoute, readJson } from "@/app/_lib/api";
import { getGateway } from "@/app/_lib/gateway";
import { ZCreateGrant } from "@/lib/policy-schemas";
import { ZRole } from "@/lib/schemas";

export const GET = apiRoute("ADMIN", async ({ req }) => {
  const q = req.nextUrl.searchParams;
  const role = ZRole.safeParse(q.get("role"));
  return { items: await getGateway().policy.listGrants({ userId: q.get("userId") ?? undefined, role: role.success ? role.data : undefined }) };
});

export const POST = apiRoute("ADMIN", async ({ req, ctx }) =>
  NextResponse.json(await getGateway().policy.createGrant(ctx, await readJson(req, ZCreateGrant)), { status: 201 }),
);
