// Writes one audit event. The full pipeline (redaction, batching, search) grows in the audit issue;
// admin changes and security events are recorded from the start.
import type { DbTx } from "../db/client";
import type { Prisma } from "../db/client";
import type { RequestContext } from "../context";

export type AuditInput = {
  action: string;
  category?: "admin" | "security" | "gateway" | "system";
  status?: "ok" | "error" | "denied";
  targetType?: string;
  targetId?: string;
  errorCode?: string;
  reason?: string;
  details?: Prisma.InputJsonValue;
};

export async function recordAudit(db: DbTx, ctx: RequestContext, input: AuditInput): Promise<void> {
  await db.auditEvent.create({
    data: {
      requestId: ctx.requestId,
      action: input.action,
      category: input.category ?? "admin",
      status: input.status ?? "ok",
      actorType: ctx.actor.type,
      userId: ctx.actor.type === "user" ? ctx.actor.userId : null,
      ip: ctx.ip ?? null,
      targetType: input.targetType ?? null,
      targetId: input.targetId ?? null,
      errorCode: input.errorCode ?? null,
      reason: input.reason ?? null,
      ...(input.details === undefined ? {} : { details: input.details }),
      endpoint: ctx.via,
    },
  });
}
