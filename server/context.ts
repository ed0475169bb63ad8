// Who is asking, passed explicitly through every server operation.
import type { Role } from "./db/client";
import { storableText } from "./db/storable";

export type Actor = { type: "user"; userId: string; email: string; role: Role } | { type: "system"; name: string };

export type RequestContext = {
  actor: Actor;
  requestId: string;
  ip?: string | undefined;
  /** How the caller authenticated: browser session, personal API token, agent session token, CLI. */
  via: "session" | "api_token" | "agent_token" | "cli" | "system";
  /** Set on the MCP endpoints: the agent and its agent session. */
  agent?: { agentId: string; agentSessionId: string } | undefined;
  /**
   * The agent's own bearer when it signed in through the external identity provider (enterprise mode): the
   * subject token of `token_exchange` upstreams (issue 22). A function, so that logging or serializing a context
   * never writes the token; never stored, logged or audited. Absent for queued tasks.
   */
  subjectToken?: (() => string) | undefined;
};

export function systemContext(name: string, requestId = crypto.randomUUID()): RequestContext {
  return { actor: { type: "system", name }, requestId, via: "system" };
}

export function actorUserId(ctx: RequestContext): string | undefined {
  return ctx.actor.type === "user" ? ctx.actor.userId : undefined;
}

/**
 * The request id of one JSON-RPC request of an MCP session: the session's id and the request's own. The client
 * chooses the latter (any string): made storable and short, since tasks, approvals and audit rows keep it.
 */
export function mcpRequestId(sessionRequestId: string, id: string | number): string {
  return `${sessionRequestId}:${storableText(String(id), 200).text}`;
}
