// The virtual server a consent scopes its agent session to (issue 23): the one the client's resource indicator
// names (`<issuer>/mcp/v/<name>`: its tokens serve nowhere else), or the one the user chose on the consent page.
import { GatewayError } from "../../errors";
import { mcpEndpointOf } from "../../mcp/mcp-endpoint-of";

function virtualServerOfResource(resource: string | null): string | undefined {
  if (!resource) return undefined;
  let pathname: string;
  try {
    pathname = new URL(resource).pathname;
  } catch {
    return undefined;
  }
  const endpoint = mcpEndpointOf(pathname);
  return endpoint?.kind === "virtual" ? endpoint.name : undefined;
}

export function consentVirtualServer(resource: string | null, chosen: string | undefined): string | undefined {
  const named = virtualServerOfResource(resource);
  if (named !== undefined && chosen !== undefined && chosen !== named) {
    const message = `the client asked for access to the virtual server "${named}" only`;
    throw new GatewayError("validation_failed", `virtualServer: ${message}.`, [{ path: "virtualServer", message, code: "virtual_server_mismatch" }]);
  }
  return chosen ?? named;
}
