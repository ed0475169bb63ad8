// The full, unredacted arguments of a request, for approvers; every reveal is audited (a security event).
import type { TApprovalReveal } from "../../lib/approval-schemas";
import type { RequestContext } from "../context";
import { forbidden, notFound } from "../errors";
import { isApprover, type ApprovalScope, type ApprovalViewer } from "./approval-scope";
import { auditApproval } from "./audit-approval";

/** The full arguments of a request, for approvers; every reveal is audited. */
export async function revealApproval(s: ApprovalScope, ctx: RequestContext, viewer: ApprovalViewer, id: string): Promise<TApprovalReveal> {
  const { db } = s;
  if (!isApprover(viewer.role)) throw forbidden("Only approvers and admins may reveal the full arguments.");
  const a = await db.approval.findUnique({ where: { id } });
  if (!a) throw notFound(`Approval request ${id}`);
  await auditApproval(s, { action: "approval.revealed", category: "security", decision: "allow" }, a, ctx);
  return { arguments: (a.arguments ?? {}) as Record<string, unknown> };
}
