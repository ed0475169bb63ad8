// Reading approval requests: approvers and admins see everyone's, users their own.
import type { TApprovalDetail, TApprovalPage, TApprovalQuery } from "../../lib/approval-schemas";
import { toPage } from "../../lib/pagination";
import type { Prisma } from "../db/client";
import { notFound } from "../errors";
import { APPROVAL_INCLUDE, toApprovalDto } from "./approval-dto";
import { isApprover, type ApprovalScope, type ApprovalViewer } from "./approval-scope";

function visible(viewer: ApprovalViewer): Prisma.ApprovalWhereInput {
  return isApprover(viewer.role) ? {} : { requesterId: viewer.userId };
}

export async function listApprovals(s: ApprovalScope, viewer: ApprovalViewer, q: TApprovalQuery): Promise<TApprovalPage> {
  const { db } = s;
  const where: Prisma.ApprovalWhereInput = {
    ...visible(viewer),
    ...(q.mine && { requesterId: viewer.userId }),
    ...(q.status?.length && { status: { in: q.status } }),
    ...(q.kind && { kind: q.kind }),
    ...(q.tool && { toolName: q.tool }),
    ...(q.requester && { requester: { email: q.requester.toLowerCase() } }),
    ...((q.from || q.to) && { createdAt: { ...(q.from && { gte: new Date(q.from) }), ...(q.to && { lt: new Date(q.to) }) } }),
  };
  // The pending queue reads oldest first (the longest wait on top); history newest first.
  const pendingOnly = q.status?.length === 1 && q.status[0] === "PENDING";
  const dir = pendingOnly ? "asc" : "desc";
  const rows = await db.approval.findMany({
    where,
    include: APPROVAL_INCLUDE,
    orderBy: [{ createdAt: dir }, { id: dir }],
    take: q.limit + 1,
    ...(q.cursor && { cursor: { id: q.cursor }, skip: 1 }),
  });
  const p = toPage(rows, q.limit);
  return { items: p.items.map((r) => toApprovalDto(r, viewer)), nextCursor: p.nextCursor };
}

export async function getApproval(s: ApprovalScope, viewer: ApprovalViewer, id: string): Promise<TApprovalDetail> {
  const { db } = s;
  const a = await db.approval.findFirst({ where: { id, ...visible(viewer) }, include: { ...APPROVAL_INCLUDE, tool: { select: { riskTier: true, inputSchema: true } } } });
  if (!a) throw notFound(`Approval request ${id}`);
  return { ...toApprovalDto(a, viewer), inputSchema: (a.tool?.inputSchema as Record<string, unknown> | undefined) ?? null };
}
