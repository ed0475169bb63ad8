// Agent session tokens (`pcs_…`): what a user lets one agent do on the MCP endpoints — a tool whitelist, a
// path whitelist and an expiry. A session gets the intersection of what was asked and what its user holds;
// only a hash of the token is stored; a revocation reaches every gateway process through the change bus.
import { ZCreateSession, ZSessionSettings, type TAgentSession, type TCreatedSession, type TCreateSession, type TSessionSettings } from "../../lib/policy-schemas";
import { recordAudit } from "../audit/record-audit";
import { mintToken } from "../auth/token-format";
import type { RequestContext } from "../context";
import { toJson, type AgentSession, type Db, type DbTx } from "../db/client";
import { forbidden, GatewayError, notFound } from "../errors";
import { publishChange } from "../events/change-bus";
import { revokeGrantsOfSession } from "../oauth/as/grant-session";
import { canaryBucket } from "./canary-bucket";
import { NO_OUTBOUND_EXCEPTIONS, OutboundUrlError, resolveOutbound, type OutboundPolicy } from "../net/outbound-url";
import { intersectPathLists, normalizeWhitelistEntry } from "../policy/path-check";
import { intersectToolPatterns } from "../policy/patterns";
import { heldFrom, loadPolicySnapshot } from "../policy/policy-cache";
import { newCallbackSecret } from "../tasks/webhook-signature";
import { AUTHORIZATION_REVOKED, revokePendingTasks } from "../tasks/revoke-task";

const SETTINGS_KEY = "sessions";
export const DEFAULT_SESSION_SETTINGS: TSessionSettings = { defaultTtlSeconds: 3600, maxTtlSeconds: 86_400 };

export async function getSessionSettings(db: DbTx): Promise<TSessionSettings> {
  const row = await db.setting.findUnique({ where: { key: SETTINGS_KEY } });
  const parsed = ZSessionSettings.safeParse(row?.value);
  return parsed.success ? parsed.data : DEFAULT_SESSION_SETTINGS;
}

export async function updateSessionSettings(db: Db, ctx: RequestContext, input: TSessionSettings): Promise<TSessionSettings> {
  const value = ZSessionSettings.parse(input);
  return db.$transaction(async (tx) => {
    const before = await getSessionSettings(tx);
    await tx.setting.upsert({ where: { key: SETTINGS_KEY }, create: { key: SETTINGS_KEY, value }, update: { value } });
    await recordAudit(tx, ctx, { action: "settings.sessions_updated", targetType: "setting", targetId: SETTINGS_KEY, details: toJson({ before, after: value }) });
    return value;
  });
}

export function sessionStatus(s: Pick<AgentSession, "revokedAt" | "expiresAt">, now = Date.now()): TAgentSession["status"] {
  return s.revokedAt ? "revoked" : s.expiresAt.getTime() <= now ? "expired" : "active";
}

export function toSessionDto(s: AgentSession & { user: { email: string } }): TAgentSession {
  return {
    id: s.id,
    agentId: s.agentId,
    userId: s.userId,
    userEmail: s.user.email,
    prefix: s.prefix,
    tools: s.tools,
    paths: s.paths,
    status: sessionStatus(s),
    expiresAt: s.expiresAt.toISOString(),
    revokedAt: s.revokedAt?.toISOString() ?? null,
    lastUsedAt: s.lastUsedAt?.toISOString() ?? null,
    callbackUrl: s.callbackUrl,
    virtualServerId: s.virtualServerId,
    createdAt: s.createdAt.toISOString(),
  };
}

/** Normalized path entries, or a 422 naming the entry that is not an absolute path or URI prefix. */
function normalizePaths(entries: readonly string[]): string[] {
  return entries.map((e, i) => {
    try {
      return normalizeWhitelistEntry(e);
    } catch (err) {
      throw new GatewayError("validation_failed", `paths[${String(i)}]: ${(err as Error).message}`, [{ path: `paths.${String(i)}`, message: (err as Error).message }]);
    }
  });
}

/**
 * Refused when given, with the check that runs again at send time (the address may change in between). A name
 * that does not resolve yet is accepted: the receiver may not be set up yet, and each send checks it anew.
 */
async function checkCallbackUrl(url: string, outbound: OutboundPolicy): Promise<void> {
  try {
    await resolveOutbound(url, outbound);
  } catch (err) {
    if (!(err instanceof OutboundUrlError)) throw err;
    if (err.reason === "unresolvable") return;
    const message = `callbackUrl ${err.message}`;
    throw new GatewayError("outbound_url_refused", `${message}.`, [{ path: "callbackUrl", message, reason: err.reason }]);
  }
}

/** Creates a session for `userId` (the caller). The token, and the webhook signing secret if any, are returned once. */
/** `inTransaction`: more writes that commit with the session or not at all (an OAuth consent binds it). */
export async function createAgentSession(db: Db, ctx: RequestContext, userId: string, raw: TCreateSession, outbound = NO_OUTBOUND_EXCEPTIONS, inTransaction?: (tx: DbTx, sessionId: string) => Promise<void>): Promise<TCreatedSession> {
  const input = ZCreateSession.parse(raw);
  if (input.callbackUrl !== undefined) await checkCallbackUrl(input.callbackUrl, outbound);
  const user = await db.user.findUnique({ where: { id: userId } });
  if (!user || user.disabled) throw notFound(`User ${userId}`);
  const settings = await getSessionSettings(db);
  const ttl = input.ttlSeconds ?? Math.min(settings.defaultTtlSeconds, settings.maxTtlSeconds);
  if (ttl > settings.maxTtlSeconds) {
    const msg = `must be at most ${String(settings.maxTtlSeconds)} seconds (the administrator's maximum)`;
    throw new GatewayError("validation_failed", `ttlSeconds ${msg}.`, [{ path: "ttlSeconds", message: msg }]);
  }
  const virtualServerId = input.virtualServer === undefined ? null : await virtualServerIdOf(db, input.virtualServer);
  const held = heldFrom(await loadPolicySnapshot(db), user);
  const tools = intersectToolPatterns(input.tools, held.tools);
  if (!tools.granted.length) {
    throw forbidden(`You hold none of the tools asked for (${input.tools.join(", ")}). Ask an admin for a grant.`);
  }
  const askedPaths = normalizePaths(input.paths);
  const heldPaths = normalizePaths(held.paths);
  const paths = intersectPathLists(askedPaths, heldPaths);
  const droppedPaths = askedPaths.filter((p) => intersectPathLists([p], heldPaths).length === 0);
  const { token, hash, prefix } = mintToken("agent");
  const expiresAt = new Date(Date.now() + ttl * 1000);
  const callbackUrl = input.callbackUrl ?? null;
  // Stored as it is, not hashed like the token: signing needs the key itself. No DTO carries it after this answer.
  const callbackSecret = callbackUrl ? newCallbackSecret() : null;
  const row = await db.$transaction(async (tx) => {
    const created = await tx.agentSession.create({
      data: { userId, agentId: input.agentId, tokenHash: hash, prefix, tools: tools.granted, paths, expiresAt, canaryBucket: 0, callbackUrl, callbackSecret, virtualServerId },
    });
    // The canary bucket follows the session id, as the MCP sessions' buckets do.
    await tx.agentSession.update({ where: { id: created.id }, data: { canaryBucket: canaryBucket(created.id) } });
    await recordAudit(tx, ctx, {
      action: "agent_session.created",
      category: "security",
      targetType: "agent_session",
      targetId: created.id,
      details: toJson({ userId, agentId: input.agentId, prefix, tools: tools.granted, paths, expiresAt: expiresAt.toISOString(), callbackUrl, ...(virtualServerId && { virtualServer: input.virtualServer, virtualServerId }), dropped: { tools: tools.dropped, paths: droppedPaths } }),
    });
    await inTransaction?.(tx, created.id);
    return created;
  });
  return { id: row.id, token, agentId: row.agentId, expiresAt: expiresAt.toISOString(), tools: tools.granted, paths, dropped: { tools: tools.dropped, paths: droppedPaths }, callbackUrl, callbackSecret, virtualServer: virtualServerId ? input.virtualServer! : null };
}

/** The id of the virtual server a session is scoped to, or a 422 naming the field. */
async function virtualServerIdOf(db: Db, name: string): Promise<string> {
  const row = await db.virtualServer.findUnique({ where: { name }, select: { id: true } });
  if (row) return row.id;
  const message = `no virtual server is named "${name}"`;
  throw new GatewayError("validation_failed", `virtualServer: ${message}.`, [{ path: "virtualServer", message, code: "unknown_virtual_server" }]);
}

export async function listAgentSessions(db: Db, opts: { userId?: string | undefined }): Promise<TAgentSession[]> {
  const rows = await db.agentSession.findMany({
    where: opts.userId ? { userId: opts.userId } : {},
    include: { user: { select: { email: true } } },
    orderBy: { createdAt: "desc" },
    take: 500,
  });
  return rows.map(toSessionDto);
}

/**
 * Revokes a session (its owner or an admin). Its change reaches the other processes' session caches through the
 * change bus: callers that answer a person (gateway.sessions.revoke, an OAuth client's block) run it under
 * heardEverywhere, so every process refuses the token from the next call on.
 */
export async function revokeAgentSession(db: Db, ctx: RequestContext, id: string): Promise<TAgentSession> {
  const row = await db.agentSession.findUnique({ where: { id }, include: { user: { select: { email: true } } } });
  if (!row) throw notFound(`Agent session ${id}`);
  const isOwner = ctx.actor.type === "user" && ctx.actor.userId === row.userId;
  const isAdmin = ctx.actor.type === "system" || (ctx.actor.type === "user" && ctx.actor.role === "ADMIN");
  if (!isOwner && !isAdmin) throw forbidden("You can revoke only your own agent sessions.");
  if (row.revokedAt) return toSessionDto(row);
  return db.$transaction(async (tx) => {
    const updated = await tx.agentSession.update({ where: { id }, data: { revokedAt: new Date() }, include: { user: { select: { email: true } } } });
    await recordAudit(tx, ctx, { action: "agent_session.revoked", category: "security", targetType: "agent_session", targetId: id, details: { userId: row.userId, agentId: row.agentId, prefix: row.prefix } });
    // A session an OAuth consent created: its grants go too, so the client's refresh token fails as well.
    const grants = await revokeGrantsOfSession(tx, id);
    if (grants.length) await recordAudit(tx, ctx, { action: "oauth.revoked", category: "security", targetType: "agent_session", targetId: id, details: { agentId: row.agentId, grants } });
    await publishChange(tx, { kind: "agent_session", sessionId: id });
    await withdrawApprovals(tx, id);
    // Its queued calls end now, on every process: a worker claims only PENDING rows.
    await revokePendingTasks(tx, { agentSessionId: id }, "The agent session was revoked before this task ran.");
    return toSessionDto(updated);
  });
}

/**
 * A revoked session's approvals go with it: its held calls end CANCELED (`authorization_revoked`, like its queued tasks) instead of running
 * once approved, and its unused grants and standing approvals are withdrawn. In the revoking transaction.
 */
async function withdrawApprovals(tx: DbTx, agentSessionId: string): Promise<void> {
  const open = await tx.approval.findMany({ where: { agentSessionId, status: { in: ["PENDING", "APPROVED"] } }, select: { id: true, taskId: true } });
  if (!open.length) return;
  const now = new Date();
  const why = "The agent session was revoked.";
  await tx.approval.updateMany({ where: { id: { in: open.map((a) => a.id) } }, data: { status: "CANCELED", decidedAt: now, decisionComment: why } });
  for (const a of open) {
    await publishChange(tx, { kind: "approval", approvalId: a.id, status: "CANCELED" });
    if (!a.taskId) continue;
    const ended = await tx.task.updateMany({ where: { id: a.taskId, status: "AWAITING_APPROVAL" }, data: { status: "CANCELED", errorCode: AUTHORIZATION_REVOKED, errorMessage: why, finishedAt: now } });
    if (ended.count) {
      await tx.taskEvent.create({ data: { taskId: a.taskId, type: "canceled", data: { reason: why, approvalId: a.id } } });
      await publishChange(tx, { kind: "task", taskId: a.taskId, status: "CANCELED" });
    }
  }
}
