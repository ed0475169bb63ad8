// Outermost step: one audit event per tool call, written before the answer leaves, even when a later
// step throws. Until redaction lands (audit issue) only argument names are stored, never values.
import type { DbTx } from "../db/client";
import type { Logger } from "../logger";
import { errorCodeOf } from "./tool-error";
import type { Middleware } from "./types";

export function auditCall(db: DbTx, logger: Logger): Middleware {
  return (next) => async (call, ctx, notes) => {
    const started = performance.now();
    let status: "ok" | "error" | "denied" = "error";
    try {
      const result = await next(call, ctx, notes);
      const code = errorCodeOf(result) ?? notes.errorCode;
      status = notes.decision === "deny" ? "denied" : result.isError ? "error" : "ok";
      if (code) notes.errorCode = code;
      return result;
    } catch (err) {
      notes.errorCode ??= "internal";
      notes.reason ??= err instanceof Error ? err.message : String(err);
      throw err;
    } finally {
      await db.auditEvent
        .create({
          data: {
            requestId: ctx.requestId,
            action: "tool.called",
            category: "gateway",
            actorType: ctx.actor.type,
            userId: ctx.actor.type === "user" ? ctx.actor.userId : null,
            ip: ctx.ip ?? null,
            endpoint: call.endpoint,
            serverSlug: call.tool.serverSlug,
            toolName: call.tool.gatewayName,
            arguments: { keys: Object.keys(call.arguments) },
            decision: notes.decision ?? (status === "denied" ? "deny" : "allow"),
            ruleId: notes.ruleId ?? null,
            reason: notes.reason?.slice(0, 2000) ?? null,
            status,
            errorCode: notes.errorCode ?? null,
            durationMs: Math.round(performance.now() - started),
            resultBytes: notes.resultBytes ?? null,
            truncated: notes.truncated ?? false,
            upstreamVersion: call.tool.version,
          },
        })
        .catch((err: unknown) => logger.error({ err, requestId: ctx.requestId }, "audit write failed"));
    }
  };
}
