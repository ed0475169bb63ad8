"use client";
// The History tab: decided, expired and withdrawn requests, newest first, filtered by outcome, tool,
// requester and creation dates, a page at a time.
import Link from "next/link";
import { useId, useState } from "react";
import { DataTable, Refreshing, TableCard, tableRow as t, type Column } from "@/components/data-table";
import { formatDateTime } from "@/components/format";
import { LoadFailed, Loading } from "@/components/load-state";
import { Pager } from "@/components/pager";
import { buttonPrimary, buttonSecondary, input, label, select } from "@/components/ui";
import { wideCell } from "@/components/table-cells";
import { useCursorPages } from "@/components/use-cursor-pages";
import type { TApproval } from "@/lib/approval-schemas";
import { dayBound, HISTORY_FILTERS, KIND_LABEL } from "./approval-format";
import { ApprovalStatusBadge } from "./approval-status-badge";
import { RequesterCell, useApprovalList } from "./approval-list";
import { approvalHref, type ApprovalListQuery } from "./approvals-api";

type Filters = { status: string; tool: string; requester: string; from: string; to: string };
const NO_FILTERS: Filters = { status: "", tool: "", requester: "", from: "", to: "" };

const COLUMNS: Column[] = [
  { label: "Tool" },
  { label: "Status" },
  { label: "Requester", className: "hidden lg:table-cell" },
  { label: "Decided by", className: "hidden xl:table-cell" },
  { label: "Requested", className: "hidden md:table-cell" },
];

export function ApprovalHistory({ poll }: { poll: number | false }) {
  const [draft, setDraft] = useState<Filters>(NO_FILTERS);
  const [applied, setApplied] = useState<Filters>(NO_FILTERS);
  const pages = useCursorPages();
  const statuses = (HISTORY_FILTERS.find((f) => f.id === applied.status) ?? HISTORY_FILTERS[0]!).statuses;
  const q: ApprovalListQuery = {
    statuses,
    tool: applied.tool,
    requester: applied.requester,
    from: dayBound(applied.from),
    to: dayBound(applied.to, true),
    cursor: pages.cursor,
  };
  const query = useApprovalList(q, poll);
  const filtered = Object.values(applied).some(Boolean);

  function apply(next: Filters) {
    setApplied(next);
    pages.reset();
  }

  return (
    <div className="grid min-w-0 gap-4">
      <FilterForm
        draft={draft}
        setDraft={setDraft}
        onApply={() => apply(draft)}
        onClear={() => {
          setDraft(NO_FILTERS);
          apply(NO_FILTERS);
        }}
        canClear={filtered || Object.values(draft).some(Boolean)}
      />
      <TableCard id="history-heading" title="Decided requests" aside={<Refreshing when={query.isPlaceholderData} />}>
        {!query.data ? (
          query.isError ? (
            <LoadFailed what="the history" error={query.error} retry={query.refetch} inCard />
          ) : (
            <Loading what="the history" />
          )
        ) : query.data.items.length === 0 ? (
          <p className="px-4 py-8 text-center text-sm text-slate-500" data-testid="history-empty">
            {filtered
              ? "No decided requests match these filters."
              : "No decided requests yet. Approved, rejected, expired and withdrawn requests are listed here."}
          </p>
        ) : (
          <>
            <DataTable columns={COLUMNS} label="Decided approval requests">
              {query.data.items.map((a) => (
                <HistoryRow key={a.id} approval={a} />
              ))}
            </DataTable>
            <Pager
              pages={pages}
              nextCursor={query.data.nextCursor}
              busy={query.isPlaceholderData}
              label="History pages"
            />
          </>
        )}
      </TableCard>
    </div>
  );
}

function FilterForm({
  draft,
  setDraft,
  onApply,
  onClear,
  canClear,
}: {
  draft: Filters;
  setDraft: (f: Filters) => void;
  onApply: () => void;
  onClear: () => void;
  canClear: boolean;
}) {
  const id = useId();
  const field = (key: keyof Filters) => ({
    id: `${id}-${key}`,
    value: draft[key],
    onChange: (e: React.ChangeEvent<HTMLInputElement | HTMLSelectElement>) =>
      setDraft({ ...draft, [key]: e.target.value }),
  });
  return (
    <form method="post"
      role="search"
      aria-label="Filter the history"
      className="grid grid-cols-1 gap-3 rounded-lg border border-slate-200 bg-white p-4 shadow-xs sm:grid-cols-2 lg:grid-cols-[repeat(5,minmax(0,1fr))_auto]"
      onSubmit={(e) => {
        e.preventDefault();
        onApply();
      }}
    >
      <div className="min-w-0">
        <label htmlFor={`${id}-status`} className={label}>
          Outcome
        </label>
        <select {...field("status")} className={`${select} mt-1`}>
          {HISTORY_FILTERS.map((f) => (
            <option key={f.id} value={f.id}>
              {f.label}
            </option>
          ))}
        </select>
      </div>
      <div className="min-w-0">
        <label htmlFor={`${id}-tool`} className={label}>
          Tool
        </label>
        <input
          {...field("tool")}
          className={`${input} mt-1 font-mono`}
          placeholder="orders__delete_order"
          autoComplete="off"
        />
      </div>
      <div className="min-w-0">
        <label htmlFor={`${id}-requester`} className={label}>
          Requester e-mail
        </label>
        <input
          {...field("requester")}
          type="email"
          className={`${input} mt-1`}
          placeholder="name@example.com"
          autoComplete="off"
        />
      </div>
      <div className="min-w-0">
        <label htmlFor={`${id}-from`} className={label}>
          From
        </label>
        <input {...field("from")} type="date" className={`${input} mt-1`} />
      </div>
      <div className="min-w-0">
        <label htmlFor={`${id}-to`} className={label}>
          To
        </label>
        <input {...field("to")} type="date" className={`${input} mt-1`} />
      </div>
      <div className="flex items-end gap-2 sm:col-span-2 lg:col-span-1">
        <button type="submit" className={buttonPrimary}>
          Filter
        </button>
        <button type="button" className={buttonSecondary} onClick={onClear} disabled={!canClear}>
          Clear
        </button>
      </div>
    </form>
  );
}

function HistoryRow({ approval: a }: { approval: TApproval }) {
  const deciders = [...new Set(a.decisions.map((d) => d.approverEmail))].join(", ");
  return (
    <tr className={t.tr} data-testid="approval-row" data-id={a.id} data-status={a.status}>
      <td className={`${t.cell} w-full min-w-0 sm:w-auto sm:max-w-[20rem]`}>
        <Link
          href={approvalHref(a.id)}
          className="block truncate font-mono text-sm font-medium text-indigo-700 hover:underline"
          title={a.tool}
        >
          {a.tool}
        </Link>
        <p className="flex min-w-0 flex-wrap gap-x-3 text-xs text-slate-500">
          {a.kind !== "CALL" && <span>{KIND_LABEL[a.kind]}</span>}
          <span className="max-w-full truncate lg:hidden">{a.requesterEmail}</span>
          {deciders && <span className="max-w-full truncate xl:hidden">by {deciders}</span>}
          <span className="md:hidden">{formatDateTime(a.createdAt)}</span>
        </p>
        {a.decisionComment && (
          <p className="mt-0.5 line-clamp-2 text-xs break-words text-slate-600" data-testid="approval-comment">
            “{a.decisionComment}”
          </p>
        )}
      </td>
      <td className={`${t.cell} sm:w-32`}>
        <ApprovalStatusBadge status={a.status} />
      </td>
      <RequesterCell email={a.requesterEmail} />
      <td className={`${wideCell("xl:table-cell")} max-w-[14rem] truncate text-slate-700`}>{deciders || "—"}</td>
      <td className={`${wideCell("md:table-cell")} whitespace-nowrap text-slate-600`}>{formatDateTime(a.createdAt)}</td>
    </tr>
  );
}
