// GET|POST|DELETE /mcp/s/<slug> – one upstream server, transparently: its own tool, resource and prompt names,
// subscriptions, logging, progress, cancellation, and its requests to the agent (sampling, elicitation, roots).
import type { NextRequest } from "next/server";
import { getGateway } from "@/app/_lib/gateway";

export const dynamic = "force-dynamic";

async function handle(req: NextRequest, { params }: { params: Promise<{ slug: string }> }): Promise<Response> {
  const { slug } = await params;
  return getGateway().mcp.handle(req, { kind: "server", slug });
}

export { handle as GET, handle as POST, handle as DELETE };
