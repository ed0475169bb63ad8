// An agent session scoped to a virtual server (issue 23) is served at that virtual server's endpoint only.
import type { McpEndpoint } from "./mcp-endpoint";
import { jsonRpcError } from "./json-rpc-error";

/**
 * 403 `session_scope_mismatch` for a scoped session anywhere but its virtual server's `/mcp/v/<name>`, else null.
 * Checked by id, so a virtual server deleted and made again under the same name is another one.
 */
export async function sessionScopeRefusal(deps: { virtualServerId?: ((name: string) => Promise<string | null>) | undefined }, scopedTo: string | null, endpoint: McpEndpoint): Promise<Response | null> {
  if (scopedTo === null) return null;
  if (endpoint.kind === "virtual" && (await deps.virtualServerId?.(endpoint.name)) === scopedTo) return null;
  const message = "This agent session is scoped to one virtual server and is served only at its endpoint (/mcp/v/<name>).";
  return jsonRpcError(403, -32001, message, {}, { code: "session_scope_mismatch" });
}
