// ANY /api/v1/* – JSON 404 for routes that do not exist
import type { NextRequest } from "next/server";
import { errorResponse, requestIdOf } from "@/app/_lib/api";

function unknownRoute(req: NextRequest) {
  return errorResponse("not_found", `No API route ${req.method} ${req.nextUrl.pathname}. See /api/v1/openapi.json.`, undefined, {
    "x-request-id": requestIdOf(req),
  });
}

export { unknownRoute as GET, unknownRoute as POST, unknownRoute as PUT, unknownRoute as PATCH, unknownRoute as DELETE };
