// GET /api/v1/openapi.json – the OpenAPI 3.1 document, generated from the zod schemas
import { NextResponse } from "next/server";
import { buildOpenApi } from "@/lib/openapi";
import { VERSION } from "@/server/version";

export function GET() {
  return NextResponse.json(buildOpenApi(VERSION));
}
