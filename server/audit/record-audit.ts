// Writes one audit event of an admin change or a security event, in the caller's transaction; reason and
// details go through the same redaction as tool calls' events (audit-writer.ts), and the row is made storable
// (NUL, lone surrogates, oversized values) the same way, so a hostile email or name cannot fail the change.
import type { DbTx } from "../db/client";
import type { Prisma } from "../db/client";
import type { RequestContext } from "../context";
import { redactor } from "./redaction";
import { storableRow } from "./storable-row";

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
    data: storableRow({
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
      reason: input.reason === undefined ? null : redactor().text(input.reason),
      ...(input.details === undefined ? {} : { details: redactor().value(input.details) as Prisma.InputJsonValue }),
      endpoint: ctx.via,
    }),
  });
}
