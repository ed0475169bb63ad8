// GET|POST|DELETE /mcp/code – code mode (Streamable HTTP): search_tools, execute_code, request_approval and the
// task tools, whatever the number of upstream tools; programs call the tools inside a QuickJS sandbox
import type { NextRequest } from "next/server";
import { getGateway } from "@/app/_lib/gateway";

export const dynamic = "force-dynamic";

function handle(req: NextRequest): Promise<Response> {
  return getGateway().mcp.handle(req, { kind: "code" });
}

export { handle as GET, handle as POST, handle as DELETE };
