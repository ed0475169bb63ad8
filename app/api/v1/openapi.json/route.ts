// GET /api/v1/openapi.json – the OpenAPI 3.1 document, generated from the zod schemas
import { NextResponse } from "next/server";
import { requestIdOf } from "@/app/_lib/api";
import { buildOpenApi } from "@/lib/openapi";
import { VERSION } from "@/server/version";

export function GET(req: Request) {
  return NextResponse.json(buildOpenApi(VERSION), { headers: { "x-request-id": requestIdOf(req) } });
}
