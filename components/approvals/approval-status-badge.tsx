import { Tag } from "@/components/tools/tier-badge";
import type { TApprovalStatus } from "@/lib/approval-schemas";
import { STATUS_LABEL } from "./approval-format";

const TONE: Record<TApprovalStatus, Parameters<typeof Tag>[0]["tone"]> = {
  PENDING: "amber",
  APPROVED: "emerald",
  USED: "emerald",
  REJECTED: "red",
  EXPIRED: "slate",
  CANCELED: "slate",
};

export function ApprovalStatusBadge({ status }: { status: TApprovalStatus }) {
  return (
    <span className="inline-flex" data-testid="approval-status" data-status={status}>
      <Tag tone={TONE[status]}>{STATUS_LABEL[status]}</Tag>
    </span>
  );
}
