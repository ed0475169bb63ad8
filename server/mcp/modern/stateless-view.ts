// What the endpoint's handling knows of a 2026-07-28 request's "session": there is none. The agent session
// (its bearer token) still decides everything it did before — grant, canary bucket, per-session limits.
import { createHash, randomUUID } from "node:crypto";
import type { ClientCapabilities } from "@modelcontextprotocol/sdk/types.js";
import type { RequestContext } from "../../context";
import type { SessionGrant } from "../../policy/evaluate";
import type { McpEndpoint } from "../mcp-endpoint";
import { INNER_PROTOCOL_VERSION } from "./modern-protocol";
import type { StateBinding } from "./request-state";
import type { StatelessLeases } from "./stateless-leases";

const RELAYED_CAPABILITIES: ClientCapabilities = { elicitation: { form: {}, url: {} }, sampling: {}, roots: {} };

/** How the handle of a 2026-07-28 request's upstream session begins: no client is there between its requests. */
export const STATELESS_SESSION_PREFIX = "stateless-";

/** What a requestState is bound to: the agent session, endpoint, method, name (or uri) and arguments. */
export function stateBinding(agentSessionId: string, endpoint: string, message: { method: string; params: Record<string, unknown> }): StateBinding {
  const { name, uri } = message.params;
  return { agentSessionId, endpoint, method: message.method, name: typeof name === "string" ? name : typeof uri === "string" ? uri : "", arguments: message.params.arguments };
}

/**
 * The handle the endpoint's handling runs under, and its release once the handling has ended. On /mcp/s/<slug>
 * it names an upstream session Portcullis keeps for the agent session's stateless requests to that server, held
 * by this request alone (stateless-leases.ts), reused by the next; elsewhere it is per request. No MCP session
 * row is written for either, and the client never sees it.
 */
export function statelessView(endpoint: McpEndpoint, agentSession: { id: string; canaryBucket: number }, ctx: RequestContext, grant: SessionGrant, leases: StatelessLeases, tasksExtension = false) {
  const lease =
    endpoint.kind === "server"
      ? leases.acquire(`${STATELESS_SESSION_PREFIX}${createHash("sha256").update(`${agentSession.id}\u0000${endpoint.slug}`).digest("base64url").slice(0, 32)}`)
      : { id: `${STATELESS_SESSION_PREFIX}${randomUUID()}`, release: () => undefined };
  const mcpSessionId = lease.id;
  // The relay's upstream may ask for input (MRTR turns that into input_required, or -32021 when this client did
  // not declare the capability); elsewhere nothing behind sends a 2026 client requests.
  const clientCapabilities: ClientCapabilities = endpoint.kind === "server" ? RELAYED_CAPABILITIES : {};
  const view = { mcpSessionId, isNew: false, bucket: agentSession.canaryBucket, sessionKey: agentSession.id, ctx, clientCapabilities, grant, tasksExtension };
  return { view, release: lease.release };
}

/** The request's headers as the 2025 handling behind reads them: the version it is driven at. */
export function innerHeaders(headers: { get(name: string): string | null }): { get(name: string): string | null } {
  return { get: (name) => (name.toLowerCase() === "mcp-protocol-version" ? INNER_PROTOCOL_VERSION : headers.get(name)) };
}
