// A transparent session's protocol state (log level, resource subscriptions) in PostgreSQL
// (`mcp_sessions.state`), so any process can rebuild the session's upstream connection with it.
import type { LoggingLevel } from "@modelcontextprotocol/sdk/types.js";
import type { Db } from "../../db/client";

export type SessionState = { logLevel?: LoggingLevel; subscriptions?: string[] };

export async function readState(db: Db, mcpSessionId: string): Promise<SessionState> {
  const row = await db.mcpSession.findUnique({ where: { id: mcpSessionId }, select: { state: true } });
  return (row?.state ?? {}) as SessionState;
}

/** Atomic jsonb updates, so two processes changing one session's state at once lose nothing. */
export async function saveState(db: Db, mcpSessionId: string, change: { logLevel: LoggingLevel } | { subscribe: string } | { unsubscribe: string }) {
  if ("logLevel" in change) {
    await db.$executeRaw`UPDATE mcp_sessions SET state = jsonb_set(state, '{logLevel}', to_jsonb(${change.logLevel}::text)) WHERE id = ${mcpSessionId}`;
  } else if ("subscribe" in change) {
    await db.$executeRaw`UPDATE mcp_sessions SET state = jsonb_set(state, '{subscriptions}',
      (SELECT coalesce(jsonb_agg(DISTINCT u), '[]'::jsonb) FROM jsonb_array_elements_text(coalesce(state->'subscriptions', '[]'::jsonb) || jsonb_build_array(${change.subscribe}::text)) u))
      WHERE id = ${mcpSessionId}`;
  } else {
    await db.$executeRaw`UPDATE mcp_sessions SET state = jsonb_set(state, '{subscriptions}',
      coalesce((SELECT jsonb_agg(u) FROM jsonb_array_elements_text(coalesce(state->'subscriptions', '[]'::jsonb)) u WHERE u <> ${change.unsubscribe}::text), '[]'::jsonb))
      WHERE id = ${mcpSessionId}`;
  }
}
