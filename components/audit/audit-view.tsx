"use client";
// The Audit page: a filter form whose state is the URL (?user=&tool=&status=…, the REST API's own parameters),
// a server-side paged list with the total, a sort toggle, and downloads of the whole filter as CSV or JSON Lines.
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { usePathname, useRouter, useSearchParams } from "next/navigation";
import { DataTable, Refreshing, TableCard, tableRow as t, type Column } from "@/components/data-table";
import { EmptyState } from "@/components/empty-state";
import { formatDateTime } from "@/components/format";
import { AuditIcon } from "@/components/icons";
import { LoadFailed, Loading } from "@/components/load-state";
import { PageHeader } from "@/components/page-header";
import { Pager } from "@/components/pager";
import { wideCell } from "@/components/table-cells";
import { Tag } from "@/components/tools/tier-badge";
import { buttonSecondary } from "@/components/ui";
import { useCursorPages } from "@/components/use-cursor-pages";
import type { TAuditEvent, TAuditSort } from "@/lib/audit-schemas";
import { auditHref, auditListKey, exportHref, filterFromSearch, filterQuery, searchAudit, type AuditFilterParams } from "./audit-api";
import { FilterForm, FilterPanel } from "./audit-filters";
import { formatMs, formatTotal, statusOf } from "./audit-format";

const SORT_LABEL: Record<TAuditSort, string> = { "-occurredAt": "Newest first", occurredAt: "Oldest first", "-durationMs": "Slowest first" };
const NEXT_SORT: Record<TAuditSort, TAuditSort> = { "-occurredAt": "occurredAt", occurredAt: "-durationMs", "-durationMs": "-occurredAt" };

export function AuditView() {
  const search = useSearchParams();
  const router = useRouter();
  const pathname = usePathname();
  const filter = filterFromSearch(new URLSearchParams(search.toString()));
  const key = filterQuery(filter);
  const go = (f: AuditFilterParams) => {
    const qs = filterQuery(f);
    router.replace(qs ? `${pathname}?${qs}` : pathname, { scroll: false });
  };
  const sort = (filter.sort ?? "-occurredAt") as TAuditSort;

  return (
    <>
      <PageHeader
        title="Audit"
        description="Every tool call, approval, sign-in and admin change: who, which agent, what was decided and how it ended."
        actions={
          <>
            <a className={buttonSecondary} href={exportHref(filter, "csv")} download data-testid="audit-export-csv">
              Export CSV
            </a>
            <a className={buttonSecondary} href={exportHref(filter, "jsonl")} download data-testid="audit-export-jsonl">
              Export JSONL
            </a>
          </>
        }
      />
      {/* Keyed by the filter: after a search a phone folds the form away again, so the results show. */}
      <FilterPanel key={`panel-${key}`} filter={filter}>
        {/* Re-mounted when the URL changes (back button, a link), so the fields show the filter in force. */}
        <FilterForm key={key} filter={filter} onApply={go} />
      </FilterPanel>
      {/* A new filter starts again at the first page. */}
      <AuditList key={`list-${key}`} filter={filter} sort={sort} onSort={() => go({ ...filter, sort: NEXT_SORT[sort] === "-occurredAt" ? undefined : NEXT_SORT[sort] })} />
    </>
  );
}

function AuditList({ filter, sort, onSort }: { filter: AuditFilterParams; sort: TAuditSort; onSort: () => void }) {
  const pages = useCursorPages();
  const query = useQuery({
    queryKey: auditListKey(filter, pages.cursor),
    queryFn: ({ signal }) => searchAudit(filter, pages.cursor, signal),
    placeholderData: keepPreviousData,
    retry: 1,
  });
  const title = (
    <span className="flex flex-wrap items-baseline gap-x-3">
      <span>Events</span>
      {query.data && (
        <span className="text-sm font-normal text-slate-500" data-testid="audit-total" data-total={query.data.total} data-estimate={query.data.totalIsEstimate}>
          {formatTotal(query.data)}
        </span>
      )}
    </span>
  );
  return (
    <TableCard
      id="audit-heading"
      title={title}
      aside={
        <span className="flex items-center gap-3">
          <Refreshing when={query.isPlaceholderData} />
          <button type="button" className="rounded-md px-2 py-1 text-sm font-medium text-indigo-700 hover:bg-indigo-50" onClick={onSort} data-testid="audit-sort" data-sort={sort} title="Change the order">
            {SORT_LABEL[sort]} ⇅
          </button>
        </span>
      }
    >
      {!query.data ? (
        query.isError ? (
          <LoadFailed what="the audit events" error={query.error} retry={query.refetch} inCard />
        ) : (
          <Loading what="audit events" />
        )
      ) : query.data.items.length === 0 ? (
        <div className="p-4">
          <EmptyState icon={<AuditIcon className="h-6 w-6" />} title="No events match">
            <p>Nothing in the audit log matches these filters. Widen the time range or clear a filter.</p>
          </EmptyState>
        </div>
      ) : (
        <>
          {query.isError && (
            <p role="alert" className="px-4 py-2 text-sm text-red-700">
              {query.error.message}
            </p>
          )}
          <AuditTable events={query.data.items} />
          <Pager pages={pages} nextCursor={query.data.nextCursor} busy={query.isPlaceholderData} label="Audit pages" />
        </>
      )}
    </TableCard>
  );
}

function AuditTable({ events }: { events: readonly TAuditEvent[] }) {
  const columns: Column[] = [
    { label: "Time" },
    { label: "Event" },
    { label: "Who", className: "hidden lg:table-cell" },
    { label: "Outcome" },
    { label: "Duration", className: "hidden md:table-cell text-right" },
  ];
  return (
    <DataTable columns={columns} label="Audit events">
      {events.map((e) => {
        const status = statusOf(e.status);
        return (
          <tr key={e.id} className={t.tr} data-testid="audit-row" data-id={e.id} data-status={e.status} data-tool={e.toolName ?? ""} data-action={e.action}>
            <td className={`${t.cell} basis-full text-xs whitespace-nowrap text-slate-600 sm:basis-auto sm:text-sm`}>
              <Link href={auditHref(e.id)} className="text-indigo-700 hover:underline" data-testid="audit-row-link">
                <time dateTime={e.occurredAt}>{formatDateTime(e.occurredAt)}</time>
              </Link>
            </td>
            <td className={`${t.cell} w-full min-w-0 sm:w-auto sm:max-w-[22rem]`}>
              <Link href={auditHref(e.id)} className="block truncate font-mono text-sm font-medium text-slate-900 hover:text-indigo-700 hover:underline" title={e.toolName ?? e.action}>
                {e.toolName ?? e.action}
              </Link>
              <p className="flex min-w-0 flex-wrap gap-x-3 text-xs text-slate-500">
                {e.toolName && <span>{e.action}</span>}
                <span className="max-w-full truncate lg:hidden">{whoOf(e)}</span>
                {e.reason && (
                  <span className="max-w-full truncate" title={e.reason}>
                    {e.reason}
                  </span>
                )}
              </p>
            </td>
            <td className={`${wideCell("lg:table-cell")} max-w-[16rem] truncate text-slate-700`} title={whoOf(e)}>
              {whoOf(e)}
            </td>
            <td className={`${t.cell} min-w-0`}>
              <span className="flex flex-wrap items-center gap-x-2 gap-y-1">
                <Tag tone={status.tone}>{status.label}</Tag>
                {e.errorCode && <code className="font-mono text-xs text-red-700">{e.errorCode}</code>}
              </span>
            </td>
            <td className={`${wideCell("md:table-cell")} text-right whitespace-nowrap text-slate-700 tabular-nums`}>{formatMs(e.durationMs)}</td>
          </tr>
        );
      })}
    </DataTable>
  );
}

function whoOf(e: TAuditEvent): string {
  const person = e.userEmail ?? e.userId ?? (e.actorType === "system" ? "system" : "—");
  return e.agentId ? `${person} · ${e.agentId}` : person;
}
