"use client";
// The History tab: every change to tiers, rules and grants, newest first, each of which can be reverted
// (the revert is itself a change, so it can be undone too).
import { useInfiniteQuery } from "@tanstack/react-query";
import { useState } from "react";
import { DataTable, Refreshing, TableCard, tableRow as t, type Column } from "@/components/data-table";
import { Dialog } from "@/components/dialog";
import { formatDateTime } from "@/components/format";
import { Loading, LoadFailed } from "@/components/load-state";
import { Tag } from "@/components/tools/tier-badge";
import { buttonDanger, buttonSecondary } from "@/components/ui";
import type { TPolicyChange } from "@/lib/policy-schemas";
import { useRevertChange } from "./policy-mutations";
import { historyKey, listHistory } from "./queries";

const COLUMNS: Column[] = [
  { label: "Time" },
  { label: "Author", className: "hidden md:table-cell" },
  { label: "Change" },
  // The summary names the tool already; the column is for scanning a wide screen.
  { label: "Tool", className: "hidden 2xl:table-cell" },
  { label: "Actions", srOnly: true, className: "text-right" },
];

const ENTITY_LABEL: Record<TPolicyChange["entityType"], string> = { tool_tier: "Tier", rule: "Rule", grant: "Grant" };

export function PolicyHistory() {
  const [reverting, setReverting] = useState<TPolicyChange | null>(null);
  const query = useInfiniteQuery({
    queryKey: historyKey,
    queryFn: ({ pageParam, signal }) => listHistory(pageParam, signal),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last) => last.nextCursor ?? undefined,
  });
  const changes = query.data?.pages.flatMap((p) => p.items) ?? [];

  return (
    <>
      <TableCard
        id="history-heading"
        title="Policy history"
        aside={<Refreshing when={query.isFetching && !query.isPending && !query.isFetchingNextPage} />}
      >
        {query.isPending ? (
          <Loading what="the history" />
        ) : query.isError ? (
          <LoadFailed what="the history" error={query.error} retry={query.refetch} inCard />
        ) : changes.length === 0 ? (
          <p className="px-4 py-8 text-center text-sm text-slate-500">
            No changes yet. Tier, rule and grant changes are listed here, and each can be reverted.
          </p>
        ) : (
          <>
            <DataTable columns={COLUMNS} label="Policy changes">
              {changes.map((c) => (
                <ChangeRow key={c.id} change={c} onRevert={() => setReverting(c)} />
              ))}
            </DataTable>
            {query.hasNextPage && (
              <div className="flex justify-center border-t border-slate-200 px-4 py-3">
                <button
                  type="button"
                  className={buttonSecondary}
                  disabled={query.isFetchingNextPage}
                  onClick={() => void query.fetchNextPage()}
                >
                  {query.isFetchingNextPage ? "Loading…" : "Load more"}
                </button>
              </div>
            )}
          </>
        )}
      </TableCard>
      <RevertDialog change={reverting} onClose={() => setReverting(null)} />
    </>
  );
}

function ChangeRow({ change, onRevert }: { change: TPolicyChange; onRevert: () => void }) {
  return (
    <tr className={t.tr} data-testid="policy-change" data-id={change.id} data-entity={change.entityType}>
      <td className={`${t.cell} text-xs whitespace-nowrap text-slate-600 sm:text-sm`}>
        <time dateTime={change.createdAt}>{formatDateTime(change.createdAt)}</time>
      </td>
      {/* Not t.cell: its sm:table-cell would show the cell before its column's header does. */}
      <td className="hidden px-4 py-3 align-middle whitespace-nowrap text-slate-700 md:table-cell">
        {change.authorEmail ?? "System"}
      </td>
      <td className={`${t.cell} w-full min-w-0 sm:w-auto`}>
        <div className="flex items-start gap-2">
          <Tag tone="indigo">{ENTITY_LABEL[change.entityType]}</Tag>
          <span className="min-w-0 break-words text-slate-900" data-testid="change-summary">
            {change.summary}
          </span>
          {change.revertOf && <Tag>Revert</Tag>}
        </div>
        {/* Where the author column is hidden, the author follows the summary. */}
        <p className="mt-0.5 text-xs break-all text-slate-500 md:hidden">{change.authorEmail ?? "System"}</p>
      </td>
      <td className="hidden px-4 py-3 align-middle font-mono text-sm whitespace-nowrap text-slate-700 2xl:table-cell">
        {change.tool ?? "—"}
      </td>
      <td className={`${t.cell} ml-auto sm:text-right`}>
        <button
          type="button"
          className={`${buttonSecondary} py-1.5`}
          onClick={onRevert}
          aria-label={`Revert: ${change.summary}`}
        >
          Revert
        </button>
      </td>
    </tr>
  );
}

function RevertDialog({ change, onClose }: { change: TPolicyChange | null; onClose: () => void }) {
  const mutation = useRevertChange(onClose);
  return (
    <Dialog
      open={change !== null}
      onClose={onClose}
      title="Revert this change?"
      description={
        change ? (
          <>
            <span className="font-medium text-slate-900">{change.summary}</span>
            <span className="mt-1 block">
              The policy goes back to what it was before. The revert is recorded as a change of its own.
            </span>
          </>
        ) : undefined
      }
      footer={
        <>
          <button type="button" className={buttonSecondary} onClick={onClose} disabled={mutation.isPending}>
            Cancel
          </button>
          <button
            type="button"
            className={buttonDanger}
            disabled={mutation.isPending || !change}
            onClick={() => change && mutation.mutate(change)}
          >
            {mutation.isPending ? "Reverting…" : "Revert"}
          </button>
        </>
      }
    />
  );
}
