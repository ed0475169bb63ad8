import { Tag } from "@/components/tools/tier-badge";
import type { TTaskStatus } from "@/lib/task-schemas";
import { STATUS_LABEL } from "./task-format";

const TONE: Record<TTaskStatus, Parameters<typeof Tag>[0]["tone"]> = {
  PENDING: "slate",
  AWAITING_APPROVAL: "amber",
  RUNNING: "indigo",
  SUCCEEDED: "emerald",
  FAILED: "red",
  CANCELED: "slate",
  EXPIRED: "amber",
};

export function TaskStatusBadge({ status }: { status: TTaskStatus }) {
  return (
    <span className="inline-flex" data-testid="task-status" data-status={status}>
      <Tag tone={TONE[status]}>
        {status === "RUNNING" && (
          <span
            aria-hidden="true"
            className="mr-1.5 h-1.5 w-1.5 animate-pulse self-center rounded-full bg-indigo-500"
          />
        )}
        {STATUS_LABEL[status]}
      </Tag>
    </span>
  );
}
