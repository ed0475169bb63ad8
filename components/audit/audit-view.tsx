"use client";
// The Audit page: a filter form whose state is the URL (?user=&tool=&status=…, the REST API's own parameters),
// a server-side paged list with the total, a sort toggle, and downloads of the whole filter as CSV or JSON Lines.
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { usePathname, useRouter, useSearchParams } from "next/navigation";
import { useState, type FormEvent } from "react";
import { DataTable, Refreshing, TableCard, tableRow as t, type Column } from "@/components/data-table";
import { EmptyState } from "@/components/empty-state";
import { formatDateTime } from "@/components/format";
import { AuditIcon } from "@/components/icons";
import { LoadFailed, Loading } from "@/components/load-state";
import { PageHeader } from "@/components/page-header";
import { Pager } from "@/components/pager";
import { wideCell } from "@/components/table-cells";
import { Tag } from "@/components/tools/tier-badge";
import { buttonPrimary, buttonSecondary, input, label as labelClass, select } from "@/components/ui";
import { useCursorPages } from "@/components/use-cursor-pages";
import { AUDIT_DECISIONS, AUDIT_STATUSES, type TAuditEvent, type TAuditSort } from "@/lib/audit-schemas";
import { auditHref, auditListKey, exportHref, filterFromSearch, filterQuery, searchAudit, type AuditFilterParams } from "./audit-api";
import { DECISION_LABEL, formatMs, formatTotal, fromLocalInput, QUICK_RANGES, statusOf, toLocalInput } from "./audit-format";

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
      {/* Re-mounted when the URL changes (back button, a link), so the fields show the filter in force. */}
      <FilterForm key={key} filter={filter} onApply={go} />
      {/* A new filter starts again at the first page. */}
      <AuditList key={`list-${key}`} filter={filter} sort={sort} onSort={() => go({ ...filter, sort: NEXT_SORT[sort] === "-occurredAt" ? undefined : NEXT_SORT[sort] })} />
    </>
  );
}

function Field({ name, label, placeholder, value, hint }: { name: string; label: string; placeholder?: string; value: string | undefined; hint?: string }) {
  return (
    <div className="min-w-0">
      <label htmlFor={`audit-${name}`} className={labelClass}>
        {label}
      </label>
      <input id={`audit-${name}`} name={name} defaultValue={value ?? ""} placeholder={placeholder} className={`${input} mt-1`} data-testid={`audit-filter-${name}`} autoComplete="off" spellCheck={false} title={hint} />
    </div>
  );
}

/** A select of `options`, "any" first; a value from the URL that is not one of them is kept as an option. */
function Choice<T extends string>({ name, label, value, any, options, labelOf }: { name: string; label: string; value: string | undefined; any: string; options: readonly T[]; labelOf: (o: T) => React.ReactNode }) {
  return (
    <div className="min-w-0">
      <label htmlFor={`audit-${name}`} className={labelClass}>
        {label}
      </label>
      <select id={`audit-${name}`} name={name} defaultValue={value ?? ""} className={`${select} mt-1`} data-testid={`audit-filter-${name}`}>
        <option value="">{any}</option>
        {options.map((o) => (
          <option key={o} value={o}>
            {labelOf(o)}
          </option>
        ))}
        {value && !(options as readonly string[]).includes(value) && <option value={value}>{value}</option>}
      </select>
    </div>
  );
}

/** A local date and time, held by the form (the quick ranges set it). */
function When({ name, label, value, onChange }: { name: string; label: string; value: string; onChange: (v: string) => void }) {
  return (
    <div className="min-w-0">
      <label htmlFor={`audit-${name}`} className={labelClass}>
        {label}
      </label>
      <input id={`audit-${name}`} type="datetime-local" value={value} onChange={(e) => onChange(e.target.value)} className={`${input} mt-1`} data-testid={`audit-filter-${name}`} />
    </div>
  );
}

function FilterForm({ filter, onApply }: { filter: AuditFilterParams; onApply: (f: AuditFilterParams) => void }) {
  const [from, setFrom] = useState(toLocalInput(filter.from));
  const [to, setTo] = useState(toLocalInput(filter.to));
  const submit = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const data = new FormData(e.currentTarget);
    const text = (k: string) => {
      const v = data.get(k);
      return typeof v === "string" && v.trim() ? v.trim() : undefined;
    };
    onApply({
      q: text("q"),
      user: text("user"),
      agent: text("agent"),
      session: text("session"),
      tool: text("tool"),
      server: text("server"),
      status: text("status"),
      decision: text("decision"),
      from: fromLocalInput(from),
      to: fromLocalInput(to),
      sort: filter.sort,
      // Kept from a link (e.g. ?action=approval.*), not in the form.
      action: filter.action,
      category: filter.category,
    });
  };
  const quick = (ms: number) => {
    setFrom(toLocalInput(isoAgo(ms)));
    setTo("");
  };
  return (
    <form method="post" onSubmit={submit} className="mb-6 rounded-lg border border-slate-200 bg-white p-4 shadow-xs" role="search" aria-label="Audit filters" data-testid="audit-filters">
      <div className="grid grid-cols-1 gap-3 sm:grid-cols-2 lg:grid-cols-4">
        <div className="sm:col-span-2 lg:col-span-4">
          <Field name="q" label="Text" value={filter.q} placeholder="Search tool names, arguments and reasons" />
        </div>
        <Field name="user" label="User" value={filter.user} placeholder="E-mail or id" />
        <Field name="agent" label="Agent" value={filter.agent} placeholder="Agent id" />
        <Field name="session" label="Agent session" value={filter.session} placeholder="Session id" />
        <Field name="tool" label="Tool" value={filter.tool} placeholder="orders__query or orders__*" hint="Exact gateway name, or a prefix ending in *" />
        <Field name="server" label="Server" value={filter.server} placeholder="Server slug" />
        <Choice name="status" label="Status" value={filter.status} any="Any status" options={AUDIT_STATUSES} labelOf={(s) => statusOf(s).label} />
        <Choice name="decision" label="Decision" value={filter.decision} any="Any decision" options={AUDIT_DECISIONS} labelOf={(d) => DECISION_LABEL[d]} />
        <When name="from" label="From" value={from} onChange={setFrom} />
        <When name="to" label="To" value={to} onChange={setTo} />
      </div>
      <div className="mt-4 flex flex-wrap items-center gap-2">
        <button type="submit" className={buttonPrimary} data-testid="audit-apply">
          Search
        </button>
        <Link href="/audit" className={buttonSecondary} data-testid="audit-clear">
          Clear
        </Link>
        <span className="ml-auto flex flex-wrap gap-1.5" role="group" aria-label="Quick time ranges">
          {QUICK_RANGES.map((r) => (
            <button key={r.id} type="button" className="rounded-md px-2 py-1 text-xs font-medium text-indigo-700 hover:bg-indigo-50" onClick={() => quick(r.ms)} data-testid={`audit-range-${r.id}`}>
              {r.label}
            </button>
          ))}
        </span>
      </div>
      {(filter.action || filter.category) && (
        <p className="mt-3 text-xs text-slate-500">
          Also filtered by {filter.action && <code className="font-mono">action={filter.action}</code>} {filter.category && <code className="font-mono">category={filter.category}</code>}
        </p>
      )}
    </form>
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

/** Now minus `ms`, as an ISO instant (for the quick ranges, on click). */
function isoAgo(ms: number): string {
  return new Date(Date.now() - ms).toISOString();
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
