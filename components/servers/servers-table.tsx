"use client";
import Link from "next/link";
import { DataTable, Refreshing, TableCard, tableRow as t, type Column } from "@/components/data-table";
import { Switch } from "@/components/switch";
import { buttonSecondary } from "@/components/ui";
import type { TServer } from "@/lib/schemas";
import { formatLatency, launchSummary } from "./format";
import { IsolationBadge } from "./isolation-badge";
import { serverHref } from "./queries";
import { reportConnection, reportDisabled, useUpdateServer } from "./server-mutations";
import { BuiltinBadge, StatusBadge } from "./status-badge";
import { TRANSPORT_LABEL } from "./transport-picker";
import { VersionLabel } from "./version-label";
import { serverState } from "@/lib/server-state";

const COLUMNS: Column[] = [
  { label: "Server" },
  { label: "Status" },
  { label: "Tools", className: "text-right" },
  { label: "Calls p50 (1 h)", className: "hidden text-right md:table-cell" },
  { label: "Errors (1 h)", className: "hidden text-right md:table-cell" },
  { label: "Version" },
  { label: "Enabled" },
];

export function ServersTable({ servers, refreshing }: { servers: readonly TServer[]; refreshing: boolean }) {
  return (
    <TableCard
      id="servers-heading"
      title={
        <>
          Servers <span className="font-normal text-slate-500">({servers.length})</span>
        </>
      }
      aside={<Refreshing when={refreshing} />}
    >
      <DataTable columns={COLUMNS}>
        {servers.map((s) => (
          <ServerRow key={s.id} server={s} />
        ))}
      </DataTable>
    </TableCard>
  );
}

function ServerRow({ server: s }: { server: TServer }) {
  const mutation = useUpdateServer(s);
  const tone = serverState(s).tone;
  const showError = s.lastError && (tone === "down" || tone === "degraded");

  return (
    <tr data-testid="server-row" data-slug={s.slug} className={`${t.tr} ${s.enabled ? "" : "bg-slate-50"}`}>
      <td className={`${t.cell} w-full min-w-0 sm:w-auto sm:max-w-[22rem]`}>
        <div className="flex min-w-0 items-baseline gap-2">
          <Link href={serverHref(s.slug)} className="truncate font-medium text-indigo-700 hover:underline">
            {s.name}
          </Link>
          <span className="shrink-0 rounded bg-slate-100 px-1.5 py-0.5 text-xs text-slate-600">
            {TRANSPORT_LABEL[s.transport]}
          </span>
          <IsolationBadge isolation={s.isolation} />
        </div>
        <div className="truncate font-mono text-xs text-slate-500" title={launchSummary(s)}>
          {s.slug}
        </div>
        {showError && (
          <p
            className="mt-1 line-clamp-2 text-xs break-words text-red-700"
            title={s.lastError ?? undefined}
            data-testid="server-error"
          >
            {s.lastError}
          </p>
        )}
      </td>
      <td className={t.cell}>
        <div className="flex flex-wrap items-center gap-2">
          {s.transport === "builtin" ? <BuiltinBadge /> : <StatusBadge status={s.status} lastError={s.lastError} />}
          {tone === "down" && s.transport !== "builtin" && (
            <button
              type="button"
              className={`${buttonSecondary} px-2 py-1 text-xs`}
              disabled={mutation.isPending}
              aria-label={`Retry connecting to ${s.name}`}
              // A restart of a server that is down connects it now, without waiting for its next retry.
              onClick={() =>
                mutation.mutate({
                  patch: { action: "restart" },
                  done: (res) => reportConnection(res, `${s.name} is connected`),
                })
              }
            >
              {mutation.isPending ? "Retrying…" : "Retry"}
            </button>
          )}
        </div>
      </td>
      <td className={`${t.cell} whitespace-nowrap text-slate-700 sm:text-right`}>
        <Link href={serverHref(s.slug)} className="hover:underline">
          {s.toolCount} <span className="text-slate-500 sm:hidden">tools</span>
        </Link>
      </td>
      <td
        className={`${t.cell} hidden text-right whitespace-nowrap text-slate-600 tabular-nums md:table-cell`}
        title={`${s.calls.count} calls in the last hour; ping ${formatLatency(s.latencyMs)}`}
        data-testid="server-p50"
      >
        {formatLatency(s.calls.p50Ms)}
      </td>
      <td
        className={`${t.cell} hidden text-right whitespace-nowrap tabular-nums md:table-cell ${s.calls.errors ? "text-red-700" : "text-slate-600"}`}
        data-testid="server-errors"
      >
        {s.calls.count ? `${s.calls.errors} of ${s.calls.count}` : "—"}
      </td>
      <td className={`${t.cell} whitespace-nowrap`}>
        <VersionLabel server={s} />
      </td>
      <td className={`${t.cell} ml-auto`}>
        <Switch
          checked={s.enabled}
          label={`${s.name} enabled`}
          disabled={mutation.isPending}
          onChange={(enabled) =>
            mutation.mutate({
              patch: { enabled },
              done: (res) => (enabled ? reportConnection(res, `${s.name} is enabled`) : reportDisabled(s.name)),
            })
          }
        />
      </td>
    </tr>
  );
}
