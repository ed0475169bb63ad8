// A grant of the embedded authorization server is bound to the agent session its consent created: the access
// tokens carry the session's id (claim `pcs_sid`), and a grant whose session is revoked, expired or whose user
// is disabled is not found any more, so neither a code exchange nor a refresh can use it. The binding is a row
// of oauth_records (model GrantSession, id = grant id, grantId set), so revoking the grant deletes it too.
import type { Db, DbTx } from "../../db/client";
import { revokeGrantRecords } from "./prisma-oidc-adapter";

const MODEL = "GrantSession";

export async function bindGrantToSession(db: DbTx, grantId: string, sessionId: string): Promise<void> {
  await db.oAuthRecord.create({ data: { model: MODEL, id: grantId, grantId, payload: { sessionId } } });
}

export async function sessionIdOfGrant(db: DbTx, grantId: string): Promise<string | null> {
  const row = await db.oAuthRecord.findUnique({ where: { model_id: { model: MODEL, id: grantId } } });
  const sessionId = (row?.payload as { sessionId?: unknown } | undefined)?.sessionId;
  return typeof sessionId === "string" ? sessionId : null;
}

/** Whether the grant's agent session still authorizes anything (the adapter hides a grant that does not). */
export async function grantSessionUsable(db: Db, grantId: string, now = new Date()): Promise<boolean> {
  const sessionId = await sessionIdOfGrant(db, grantId);
  if (!sessionId) return false;
  const s = await db.agentSession.findUnique({ where: { id: sessionId }, select: { revokedAt: true, expiresAt: true, user: { select: { disabled: true } } } });
  return Boolean(s && !s.revokedAt && s.expiresAt > now && !s.user.disabled);
}

/** Ends the grants bound to a revoked agent session, their codes and refresh tokens included. In the revoking transaction. */
export async function revokeGrantsOfSession(db: DbTx, sessionId: string): Promise<string[]> {
  const rows = await db.oAuthRecord.findMany({ where: { model: MODEL, payload: { path: ["sessionId"], equals: sessionId } }, select: { id: true } });
  for (const r of rows) await revokeGrantRecords(db, r.id);
  return rows.map((r) => r.id);
}
