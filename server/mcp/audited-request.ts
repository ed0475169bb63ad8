// Requests other than tools/call (resources/read, prompts/get, completion/complete) reach upstream data too:
// each one is audited, committed before the answer leaves. Only the names of arguments are kept until
// redaction lands (audit issue), as for tool calls.
import type { RequestContext } from "../context";
import type { DbTx } from "../db/client";
import type { Logger } from "../logger";

export type AuditedRequestInfo = {
  action: "resource.read" | "prompt.fetched" | "completion.requested";
  endpoint: string;
  serverSlug: string;
  /** Resource URI (not stored until redaction), prompt or reference name. */
  target: string;
  argumentKeys?: string[];
  upstreamVersion?: string | undefined;
  mcpSessionId?: string | undefined;
};

export async function auditedRequest<T>(deps: { db: DbTx; logger: Logger }, ctx: RequestContext, info: AuditedRequestInfo, fn: () => Promise<T>): Promise<T> {
  const started = performance.now();
  let status: "ok" | "error" = "error";
  let errorCode: string | null = null;
  let reason: string | null = null;
  try {
    const result = await fn();
    status = "ok";
    return result;
  } catch (err) {
    errorCode = typeof (err as { code?: unknown }).code === "number" ? `mcp_${String((err as { code: number }).code)}` : "upstream_error";
    reason = (err instanceof Error ? err.message : String(err)).slice(0, 2000);
    throw err;
  } finally {
    await deps.db.auditEvent
      .create({
        data: {
          requestId: ctx.requestId,
          action: info.action,
          category: "gateway",
          actorType: ctx.actor.type,
          userId: ctx.actor.type === "user" ? ctx.actor.userId : null,
          ip: ctx.ip ?? null,
          endpoint: info.endpoint,
          mcpSessionId: info.mcpSessionId ?? null,
          serverSlug: info.serverSlug,
          toolName: info.action === "resource.read" ? null : info.target,
          targetType: info.action === "resource.read" ? "resource" : info.action === "prompt.fetched" ? "prompt" : "completion",
          arguments: { keys: info.argumentKeys ?? [] },
          decision: "allow",
          status,
          errorCode,
          reason,
          durationMs: Math.round(performance.now() - started),
          upstreamVersion: info.upstreamVersion ?? null,
        },
      })
      .catch((err: unknown) => deps.logger.error({ err, requestId: ctx.requestId }, "audit write failed"));
  }
}
