"use client";
// The Pending tab: requests waiting for a person, the longest wait on top, live. Rows the viewer may decide
// can be selected and approved or rejected together with one comment.
import { useQueryClient } from "@tanstack/react-query";
import Link from "next/link";
import { useState } from "react";
import { toast } from "sonner";
import { DataTable, Refreshing, TableCard, tableRow as t, type Column } from "@/components/data-table";
import { EmptyState } from "@/components/empty-state";
import { ApprovalIcon } from "@/components/icons";
import { LoadFailed, Loading } from "@/components/load-state";
import { Pager } from "@/components/pager";
import { useNow } from "@/components/tasks/use-now";
import { buttonDangerQuiet, buttonPrimary } from "@/components/ui";
import { wideCell } from "@/components/table-cells";
import { useCursorPages } from "@/components/use-cursor-pages";
import type { TApproval } from "@/lib/approval-schemas";
import { ageOf, approvalsCount, blockedReason, expiresIn, type Viewer } from "./approval-format";
import { RequesterCell, useApprovalList } from "./approval-list";
import { approvalHref, approvalsKey, type ApprovalListQuery } from "./approvals-api";
import { BulkDecisionDialog } from "./bulk-decision-dialog";
import type { BulkOutcome } from "./decide-many";

const COLUMNS: Column[] = [
  { label: "Select", srOnly: true, className: "w-10" },
  { label: "Tool" },
  { label: "Requester", className: "hidden lg:table-cell" },
  { label: "Agent", className: "hidden xl:table-cell" },
  { label: "Waiting", className: "text-right" },
  { label: "Expires", className: "hidden md:table-cell" },
];

export function PendingQueue({ viewer, poll }: { viewer: Viewer; poll: number | false }) {
  const pages = useCursorPages();
  const q: ApprovalListQuery = { statuses: ["PENDING"], cursor: pages.cursor };
  const query = useApprovalList(q, poll);
  const [selected, setSelected] = useState<ReadonlySet<string>>(new Set());
  const [deciding, setDeciding] = useState<"approve" | "reject" | null>(null);
  const queryClient = useQueryClient();
  const now = useNow(true);

  const items = query.data?.items ?? [];
  const decidable = items.filter((a) => blockedReason(a, viewer, now) === null);
  // Only rows still shown and still decidable count as selected (a live refresh may take some away).
  const chosen = decidable.filter((a) => selected.has(a.id));
  const allChosen = decidable.length > 0 && chosen.length === decidable.length;

  const toggle = (id: string, on: boolean) =>
    setSelected((s) => {
      const next = new Set(s);
      if (on) next.add(id);
      else next.delete(id);
      return next;
    });

  return (
    <TableCard
      id="pending-heading"
      title="Waiting for a decision"
      aside={<Refreshing when={query.isPlaceholderData} />}
    >
      {!query.data ? (
        query.isError ? (
          <LoadFailed what="the approval queue" error={query.error} retry={query.refetch} inCard />
        ) : (
          <Loading what="the approval queue" />
        )
      ) : items.length === 0 ? (
        <div className="p-4">
          <EmptyState icon={<ApprovalIcon className="h-6 w-6" />} title="No approval requests are waiting">
            <p>
              When an agent calls a high-risk tool, the call pauses and a request appears here at once with the tool,
              its arguments and who asked.
            </p>
            <p>Approving runs the call and returns the result to the agent; rejecting tells the agent why.</p>
          </EmptyState>
        </div>
      ) : (
        <>
          <div
            className="flex flex-wrap items-center gap-x-4 gap-y-2 border-b border-slate-200 bg-slate-50 px-4 py-2.5"
            role="toolbar"
            aria-label="Bulk actions"
          >
            <label className="flex items-center gap-2 text-sm text-slate-700">
              <input
                type="checkbox"
                className="h-4 w-4 rounded border-slate-300 text-indigo-600"
                checked={allChosen}
                disabled={decidable.length === 0}
                onChange={(e) => setSelected(e.target.checked ? new Set(decidable.map((a) => a.id)) : new Set())}
              />
              {chosen.length ? `${chosen.length} selected` : "Select all"}
            </label>
            <div className="ml-auto flex flex-wrap gap-2">
              <button
                type="button"
                className={`${buttonPrimary} py-1.5`}
                disabled={chosen.length === 0}
                onClick={() => setDeciding("approve")}
                data-testid="bulk-approve"
              >
                Approve selected
              </button>
              <button
                type="button"
                className={`${buttonDangerQuiet} py-1.5`}
                disabled={chosen.length === 0}
                onClick={() => setDeciding("reject")}
                data-testid="bulk-reject"
              >
                Reject selected
              </button>
            </div>
          </div>
          <DataTable columns={COLUMNS} label="Pending approval requests">
            {items.map((a) => (
              <PendingRow
                key={a.id}
                approval={a}
                blocked={blockedReason(a, viewer, now)}
                now={now}
                selected={selected.has(a.id)}
                onSelect={(on) => toggle(a.id, on)}
              />
            ))}
          </DataTable>
          <Pager
            pages={pages}
            nextCursor={query.data.nextCursor}
            busy={query.isPlaceholderData}
            label="Pending pages"
          />
        </>
      )}
      <BulkDecisionDialog
        decision={deciding}
        approvals={chosen}
        onClose={() => setDeciding(null)}
        onDone={(decision, outcome) => {
          setDeciding(null);
          setSelected(new Set(outcome.failed.map((f) => f.approval.id)));
          void queryClient.invalidateQueries({ queryKey: approvalsKey });
          reportBulk(decision, outcome);
        }}
      />
    </TableCard>
  );
}

function reportBulk(decision: "approve" | "reject", outcome: BulkOutcome) {
  const verb = decision === "approve" ? "Approved" : "Rejected";
  const total = outcome.done + outcome.failed.length;
  const plural = (n: number) => `${n} request${n === 1 ? "" : "s"}`;
  if (!outcome.failed.length) {
    toast.success(`${verb} ${plural(outcome.done)}`, {
      description:
        decision === "approve" ? "The calls run now; their agents get the results." : "Their agents are told why.",
    });
    return;
  }
  toast.error(`${verb} ${outcome.done} of ${plural(total)}; ${outcome.failed.length} failed`, {
    description: (
      <ul className="mt-1 list-disc space-y-0.5 pl-4" data-testid="bulk-failures">
        {outcome.failed.map((f) => (
          <li key={f.approval.id}>
            <span className="font-mono">{f.approval.tool}</span>: {f.message}
          </li>
        ))}
      </ul>
    ),
  });
}

function PendingRow({
  approval: a,
  blocked,
  now,
  selected,
  onSelect,
}: {
  approval: TApproval;
  blocked: string | null;
  now: number;
  selected: boolean;
  onSelect: (on: boolean) => void;
}) {
  const count = approvalsCount(a);
  return (
    <tr className={t.tr} data-testid="approval-row" data-id={a.id} data-status={a.status}>
      <td className={`${t.cell} w-6 sm:w-10`}>
        <input
          type="checkbox"
          className="h-4 w-4 rounded border-slate-300 text-indigo-600 disabled:opacity-40"
          checked={selected && !blocked}
          disabled={!!blocked}
          title={blocked ?? undefined}
          aria-label={`Select ${a.tool} requested by ${a.requesterEmail}`}
          onChange={(e) => onSelect(e.target.checked)}
          data-testid="approval-select"
        />
      </td>
      <td className={`${t.cell} min-w-0 flex-1 sm:max-w-[22rem]`}>
        <div className="flex min-w-0 flex-wrap items-center gap-x-2 gap-y-1">
          <Link
            href={approvalHref(a.id)}
            className="min-w-0 truncate font-mono text-sm font-medium text-indigo-700 hover:underline"
            title={a.tool}
          >
            {a.tool}
          </Link>
          {count && (
            <span className="text-xs font-medium text-amber-800" data-testid="approval-count">
              {count} approvals
            </span>
          )}
        </div>
        {a.reason && <p className="mt-0.5 line-clamp-2 text-xs break-words text-slate-600">{a.reason}</p>}
        <p className="mt-0.5 flex min-w-0 flex-wrap gap-x-3 text-xs text-slate-500">
          <span className="max-w-full truncate lg:hidden" data-testid="approval-requester">
            {a.requesterEmail}
          </span>
          {a.agentId && <span className="max-w-full truncate xl:hidden">via {a.agentId}</span>}
          <span className="md:hidden">expires {expiresIn(a, now)}</span>
          {blocked && <span className="text-slate-600 italic">{blocked}</span>}
        </p>
      </td>
      <RequesterCell email={a.requesterEmail} />
      <td className={`${wideCell("xl:table-cell")} max-w-[10rem] truncate text-slate-700`}>{a.agentId ?? "—"}</td>
      <td
        className={`${t.cell} ml-auto text-sm whitespace-nowrap text-slate-700 tabular-nums sm:text-right`}
        data-testid="approval-age"
      >
        <span className="sr-only">Waiting for </span>
        {ageOf(a, now)}
      </td>
      <td className={`${wideCell("md:table-cell")} whitespace-nowrap text-slate-600`} title={a.expiresAt}>
        {expiresIn(a, now)}
      </td>
    </tr>
  );
}
