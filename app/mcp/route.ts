// GET|POST|DELETE /mcp – the aggregated MCP endpoint (Streamable HTTP): every enabled upstream tool as <server>__<tool>
import type { NextRequest } from "next/server";
import { getGateway } from "@/app/_lib/gateway";

export const dynamic = "force-dynamic";

function handle(req: NextRequest): Promise<Response> {
  return getGateway().mcp.handle(req, { kind: "aggregate" });
}

export { handle as GET, handle as POST, handle as DELETE };
