// Whether an agent session row still authorizes anything: known, not revoked, not expired, its user enabled.
// Used wherever an agent acts: the MCP endpoints (sessions/session-auth.ts), a queued task when it runs
// (tasks/reauthorize-task.ts) and the policy simulator. Every refusal says why.
import type { AgentSession, User } from "../db/client";
import { GatewayError } from "../errors";
import type { SessionGrant } from "./evaluate";

export type AgentPrincipal = { user: User; session: AgentSession; grant: SessionGrant };

type Row = AgentSession & { user: User };

const invalid = (message: string) => new GatewayError("invalid_token", message);

export function checkAgentSession(row: Row | null, now = new Date()): AgentPrincipal {
  if (!row) throw invalid("The agent session token is unknown (it was never issued, or it was altered).");
  if (row.revokedAt) throw invalid("The agent session token was revoked. Ask the user for a new one.");
  if (row.expiresAt <= now) throw invalid(`The agent session token expired at ${row.expiresAt.toISOString()}. Ask the user for a new one.`);
  if (row.user.disabled) throw invalid("The agent session's user is disabled.");
  const { user, ...session } = row;
  return {
    user,
    session,
    grant: { userId: user.id, role: user.role, agentId: session.agentId, agentSessionId: session.id, tools: session.tools, paths: session.paths },
  };
}
