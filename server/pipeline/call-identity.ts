// Whose call this is, for an upstream that authenticates its callers (issue 22): the user and agent session (a
// queued task: its owner and session), and the agent's external token for token exchange when it has one.
import { actorUserId, type RequestContext } from "../context";
import type { CallIdentity } from "../upstream-auth/upstream-credentials";

export function callIdentity(serverId: string, ctx: RequestContext, sessionKey?: string): CallIdentity {
  const subjectToken = ctx.subjectToken?.();
  return { serverId, userId: actorUserId(ctx) ?? null, agentSessionId: ctx.agent?.agentSessionId ?? sessionKey ?? "", ...(subjectToken && { subjectToken }) };
}
