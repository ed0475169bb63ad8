// GET /api/v1/tools/{name}/rules – a tool's parameter rules · POST – add one: path, sql_readonly, value, row_cap (admin)
import { NextResponse } from "next/server";
import { apiRoute, readJson } from "@/app/_lib/api";
import { getGateway } from "@/app/_lib/gateway";
import { ZCreateRule } from "@/lib/policy-schemas";

type P = { name: string };

export const GET = apiRoute<P>("ADMIN", async ({ params }) => ({ items: await getGateway().policy.listRules(decodeURIComponent(params.name)) }));

export const POST = apiRoute<P>("ADMIN", async ({ req, ctx, params }) =>
  NextResponse.json(await getGateway().policy.createRule(ctx, decodeURIComponent(params.name), await readJson(req, ZCreateRule)), { status: 201 }),
);
