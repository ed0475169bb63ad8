// GET|POST|DELETE /mcp/v/<name> – a virtual server: members of several upstreams under their own names, with its
// own instructions, through the same pipeline as /mcp.
import type { NextRequest } from "next/server";
import { getGateway } from "@/app/_lib/gateway";

export const dynamic = "force-dynamic";

async function handle(req: NextRequest, { params }: { params: Promise<{ name: string }> }): Promise<Response> {
  const { name } = await params;
  return getGateway().mcp.handle(req, { kind: "virtual", name });
}

export { handle as GET, handle as POST, handle as DELETE };
