"use client";
// One approval request: what the agent wants to do and why, who asked, what the call's arguments are against
// the tool's schema, and the decision (approve / reject with a comment), or why the viewer cannot decide it.
// Live: another approver's decision shows without a reload.
import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { isApiError } from "@/components/api-client";
import { DetailFields, DetailUnavailable, type DetailField } from "@/components/detail-fields";
import { formatDateTime } from "@/components/format";
import { ApprovalIcon } from "@/components/icons";
import { PageHeader } from "@/components/page-header";
import { Breadcrumbs } from "@/components/servers/breadcrumbs";
import { isActive } from "@/components/tasks/task-format";
import { TaskStatusBadge } from "@/components/tasks/task-status-badge";
import { useNow } from "@/components/tasks/use-now";
import { TierBadge } from "@/components/tools/tier-badge";
import { card } from "@/components/ui";
import type { TApprovalDetail } from "@/lib/approval-schemas";
import {
  ageOf,
  approvalsCount,
  blockedReason,
  expiresIn,
  isRevocable,
  KIND_LABEL,
  type Viewer,
} from "./approval-format";
import { ApprovalStatusBadge } from "./approval-status-badge";
import { approvalKey, getApproval } from "./approvals-api";
import { ArgumentsTable } from "./arguments-table";
import { DecisionPanel } from "./decision-panel";
import { RevokeButton } from "./revoke-button";
import { useApprovalEvents } from "./use-approval-events";
import { APPROVER_DECISION_LABEL } from "@/lib/status-labels";

const APPROVALS = { href: "/approvals", label: "Approvals" };

export function ApprovalDetail({ id, viewer, isAdmin }: { id: string; viewer: Viewer; isAdmin: boolean }) {
  // Only approvers may open the event stream; a requester's page polls.
  const poll = useApprovalEvents(viewer.isApprover);
  const query = useQuery({
    queryKey: approvalKey(id),
    queryFn: ({ signal }) => getApproval(id, signal),
    refetchInterval: (q) => {
      const a = q.state.data;
      if (!a) return poll;
      // Approved, its task runs: task changes are not approval events, so follow the task by polling.
      if (a.status !== "PENDING" && a.taskStatus && isActive(a.taskStatus)) return 1_000;
      return a.status === "PENDING" || a.status === "APPROVED" ? poll : false;
    },
    refetchOnWindowFocus: true,
    retry: (count, err) => !(isApiError(err) && err.status === 404) && count < 3,
  });

  if (!query.data) {
    return (
      <DetailUnavailable
        crumbs={[APPROVALS, { label: id }]}
        what="the approval request"
        error={query.error}
        retry={query.refetch}
        icon={<ApprovalIcon className="h-6 w-6" />}
        missingTitle="There is no such approval request"
        back={viewer.isApprover ? { href: "/approvals", label: "Back to the approvals" } : undefined}
      >
        <p>It may belong to someone else, or the address is wrong.</p>
      </DetailUnavailable>
    );
  }
  return <ApprovalPage approval={query.data} viewer={viewer} isAdmin={isAdmin} />;
}

function ApprovalPage({
  approval: a,
  viewer,
  isAdmin,
}: {
  approval: TApprovalDetail;
  viewer: Viewer;
  isAdmin: boolean;
}) {
  const now = useNow(a.status === "PENDING");
  const blocked = blockedReason(a, viewer, now);
  const own = a.requesterId === viewer.userId;
  const canRevoke = (viewer.isApprover && isRevocable(a)) || (own && a.status === "PENDING");
  return (
    <>
      <Breadcrumbs items={[viewer.isApprover ? APPROVALS : { label: "Approvals" }, { label: a.tool }]} />
      <PageHeader
        title={a.tool}
        description={
          <span className="flex flex-wrap items-center gap-x-3 gap-y-1.5">
            <ApprovalStatusBadge status={a.status} />
            {a.riskTier && <TierBadge tier={a.riskTier} />}
            <span className="text-xs text-slate-600">{KIND_LABEL[a.kind]}</span>
            <span className="font-mono text-xs break-all text-slate-500">{a.id}</span>
          </span>
        }
        actions={canRevoke && <RevokeButton approval={a} />}
      />
      <div className="grid min-w-0 grid-cols-1 gap-6 xl:grid-cols-[minmax(0,3fr)_minmax(0,2fr)]">
        <div className="grid min-w-0 grid-cols-1 content-start gap-6">
          {/* What is asked comes before the buttons: on a phone the approver reads it on the way to Approve. */}
          <Intent approval={a} />
          <ArgumentsTable approval={a} canReveal={viewer.isApprover} />
          {a.status === "PENDING" && <DecisionPanel approval={a} blocked={blocked} />}
        </div>
        <div className="grid min-w-0 grid-cols-1 content-start gap-6">
          <Summary approval={a} now={now} isAdmin={isAdmin} />
          <Decisions approval={a} />
        </div>
      </div>
    </>
  );
}

function Intent({ approval: a }: { approval: TApprovalDetail }) {
  return (
    <section aria-labelledby="intent-heading" className={`${card} min-w-0 p-5`}>
      <h2 id="intent-heading" className="text-base font-semibold text-slate-900">
        Why
      </h2>
      <dl className="mt-3 space-y-3 text-sm">
        <div>
          <dt className="text-slate-500">The agent says</dt>
          <dd className="mt-1 break-words whitespace-pre-wrap text-slate-900" data-testid="approval-justification">
            {a.justification ?? <span className="text-slate-500 italic">The agent gave no reason.</span>}
          </dd>
        </div>
        <div>
          <dt className="text-slate-500">Held because</dt>
          <dd className="mt-1 break-words text-slate-900" data-testid="approval-reason">
            {a.reason ?? "—"}
            {a.ruleId && <span className="ml-2 font-mono text-xs text-slate-500">rule {a.ruleId}</span>}
          </dd>
        </div>
      </dl>
    </section>
  );
}

function Summary({ approval: a, now, isAdmin }: { approval: TApprovalDetail; now: number; isAdmin: boolean }) {
  const count = approvalsCount(a);
  const items: DetailField[] = [
    [
      "Tool",
      isAdmin ? (
        <Link
          key="tool"
          href={`/tools/${encodeURIComponent(a.tool)}`}
          className="font-mono break-all text-indigo-700 hover:underline"
        >
          {a.tool}
        </Link>
      ) : (
        <span key="tool" className="font-mono break-all">
          {a.tool}
        </span>
      ),
    ],
    [
      "Requester",
      <span key="r" className="break-all" data-testid="approval-requester">
        {a.requesterEmail}
      </span>,
    ],
    ["Agent", a.agentId ?? "—"],
    [
      "Session",
      a.agentSessionPrefix ? (
        <span key="s" className="font-mono">
          {a.agentSessionPrefix}…
        </span>
      ) : (
        "—"
      ),
    ],
    ["Requested", `${formatDateTime(a.createdAt)}${a.status === "PENDING" ? ` (${ageOf(a, now)} ago)` : ""}`],
    ["Expires", `${formatDateTime(a.expiresAt)}${a.status === "PENDING" ? ` (${expiresIn(a, now)})` : ""}`],
    ["Decided", formatDateTime(a.decidedAt, "Not yet")],
    ...(count ? [["Approvals", count] as DetailField] : []),
    ...(a.standingUntil ? [["Allowed until", formatDateTime(a.standingUntil)] as DetailField] : []),
    ...(a.usedAt && a.kind !== "CALL" ? [["Used", formatDateTime(a.usedAt)] as DetailField] : []),
    [
      "Task",
      a.taskId ? (
        <span key="t" className="flex flex-wrap items-center gap-2" data-testid="approval-task">
          <Link
            href={`/tasks/${encodeURIComponent(a.taskId)}`}
            className="font-mono text-xs break-all text-indigo-700 hover:underline"
          >
            {a.taskId}
          </Link>
          {a.taskStatus && <TaskStatusBadge status={a.taskStatus} />}
        </span>
      ) : (
        "—"
      ),
    ],
  ];
  return (
    <section aria-label="Summary" className={`${card} p-5`}>
      <DetailFields items={items} className="grid grid-cols-1 gap-x-6 gap-y-4 text-sm min-[420px]:grid-cols-2" />
    </section>
  );
}

function Decisions({ approval: a }: { approval: TApprovalDetail }) {
  return (
    <section aria-labelledby="decisions-heading" className={`${card} min-w-0 p-5`}>
      <h2 id="decisions-heading" className="text-base font-semibold text-slate-900">
        Decisions
      </h2>
      {a.decisions.length === 0 ? (
        <p className="mt-2 text-sm text-slate-600">
          {a.status === "PENDING"
            ? "Nobody has decided yet."
            : a.status === "EXPIRED"
              ? "Nobody decided before it expired."
              : "No decisions were recorded."}
        </p>
      ) : (
        <ol className="mt-3 space-y-3" aria-label="Decisions">
          {a.decisions.map((d) => (
            <li
              key={`${d.approverId}-${d.at}`}
              className="text-sm"
              data-testid="approval-decision"
              data-decision={d.decision}
            >
              <p className="text-slate-900">
                <span
                  className={d.decision === "approve" ? "font-medium text-emerald-700" : "font-medium text-red-700"}
                >
                  {APPROVER_DECISION_LABEL[d.decision]}
                </span>{" "}
                by <span className="break-all">{d.approverEmail}</span>
              </p>
              <p className="text-xs text-slate-500">{formatDateTime(d.at)}</p>
              {d.comment && <p className="mt-1 break-words whitespace-pre-wrap text-slate-700">“{d.comment}”</p>}
            </li>
          ))}
        </ol>
      )}
    </section>
  );
}
