// An initialize on /mcp/s/<slug> claims its upstream slot before the HTTP answer starts, so that a refusal
// (`upstream_capacity`) is an HTTP 503 with Retry-After rather than an error inside a 200 event stream.
import type { Registry } from "../../registry/create-registry";
import type { McpSessionView } from "../handle-mcp-request";
import type { SessionOwner, SessionUpstreams } from "./session-upstreams";

/** The limits' owner of a session: its agent session (or MCP session) and its user. */
export const sessionOwner = (view: McpSessionView): SessionOwner => ({ sessionKey: view.sessionKey, userId: view.grant.userId, subjectToken: view.ctx.subjectToken });

/** Throws `upstream_capacity` (a GatewayError with retryAfterSeconds) when no slot is free. */
export async function reserveUpstream(deps: { registry: Registry; sessions: SessionUpstreams }, slug: string, view: McpSessionView): Promise<void> {
  if (!view.isNew) return;
  const route = await deps.registry.resolveServer(slug, view.bucket);
  // A server that is gone is the relay's to answer, with its own error.
  if (route) deps.sessions.reserve(view.mcpSessionId, route, sessionOwner(view));
}
