// GET /.well-known/oauth-protected-resource/mcp[/code|/s/<slug>] – RFC 9728 metadata of an MCP endpoint (enterprise
// mode). The App Router does not route dot-prefixed folders: next.config.ts rewrites the well-known path here.
import type { NextRequest } from "next/server";
import { getGateway } from "@/app/_lib/gateway";
import { METADATA_PREFIX, metadataEndpointOf } from "@/server/oauth/protected-resource";

export const dynamic = "force-dynamic";

export async function GET(req: NextRequest, { params }: { params: Promise<{ path: string[] }> }): Promise<Response> {
  const { path } = await params;
  return getGateway().mcp.resourceMetadata(req, metadataEndpointOf(`${METADATA_PREFIX}/${path.map(encodeURIComponent).join("/")}`));
}
