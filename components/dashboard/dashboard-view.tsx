"use client";
// The live dashboard on the console home: stat cards and charts of the last minutes of tool calls, refreshed
// every few seconds. Approvers and admins see the whole gateway; users their own calls (the API decides).
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { useState } from "react";
import { apiFetch } from "@/components/api-client";
import { LoadFailed, Loading } from "@/components/load-state";
import { StatusBadge } from "@/components/servers/status-badge";
import { card } from "@/components/ui";
import { DASHBOARD_WINDOWS, type TDashboard } from "@/lib/dashboard-schemas";
import type { TRole } from "@/lib/roles";
import { auditSearchHref } from "./audit-links";
import { DashboardCharts } from "./dashboard-charts";
import { formatMinute, formatMs, formatPerMinute, formatRate, windowLabel } from "./dashboard-format";

export const DASHBOARD_REFRESH_MS = 5_000;

export const dashboardKey = (minutes: number) => ["dashboard", minutes] as const;

export function DashboardView({ role }: { role: TRole }) {
  const [minutes, setMinutes] = useState<number>(60);
  const query = useQuery({
    queryKey: dashboardKey(minutes),
    queryFn: ({ signal }) => apiFetch<TDashboard>(`/api/v1/dashboard?window=${String(minutes)}`, { signal }),
    placeholderData: keepPreviousData,
    refetchInterval: DASHBOARD_REFRESH_MS,
  });
  const d = query.data;
  return (
    <section aria-labelledby="dashboard-heading" data-testid="dashboard" data-updated-at={d?.generatedAt}>
      <div className="mb-4 flex flex-wrap items-end justify-between gap-3">
        <div>
          <h2 id="dashboard-heading" className="text-lg font-semibold text-slate-900">
            {d?.scope === "mine" ? "Your tool calls" : "Gateway traffic"}
          </h2>
          <p className="text-sm text-slate-600">
            Last {windowLabel(minutes)}, live{d ? ` · updated ${new Date(d.generatedAt).toLocaleTimeString()}` : ""}
          </p>
        </div>
        <div role="group" aria-label="Time window" className="inline-flex rounded-md shadow-xs">
          {DASHBOARD_WINDOWS.map((w, i) => (
            <button
              key={w}
              type="button"
              aria-pressed={w === minutes}
              onClick={() => setMinutes(w)}
              className={`px-3 py-1.5 text-sm font-medium ring-1 ring-slate-300 ring-inset focus-visible:outline-2 focus-visible:outline-indigo-600 ${i === 0 ? "rounded-l-md" : "-ml-px"} ${
                i === DASHBOARD_WINDOWS.length - 1 ? "rounded-r-md" : ""
              } ${w === minutes ? "bg-indigo-600 text-white ring-indigo-600" : "bg-white text-slate-700 hover:bg-slate-50"}`}
            >
              {windowLabel(w)}
            </button>
          ))}
        </div>
      </div>
      {!d ? (
        query.isError ? (
          <LoadFailed what="the dashboard" error={query.error} retry={query.refetch} />
        ) : (
          <div className={card}>
            <Loading what="the dashboard" />
          </div>
        )
      ) : (
        <DashboardBody d={d} role={role} />
      )}
    </section>
  );
}

function DashboardBody({ d, role }: { d: TDashboard; role: TRole }) {
  const t = d.totals;
  const approver = role === "ADMIN" || role === "APPROVER";
  // Only admins may search the audit log: for them the numbers lead to the calls they count.
  const admin = role === "ADMIN";
  const audit = (series: Parameters<typeof auditSearchHref>[0]) =>
    admin ? auditSearchHref(series, { from: d.from }) : undefined;
  return (
    <>
      <div className="grid grid-cols-2 gap-3 lg:grid-cols-3 xl:grid-cols-6">
        <Stat
          testId="stat-calls"
          label="Calls"
          value={String(t.calls)}
          hint={`${formatPerMinute(t.callsPerMinute)} per minute`}
          href={audit("calls")}
        />
        <Stat
          testId="stat-error-rate"
          label="Error rate"
          value={formatRate(t.errorRate)}
          hint={`${String(t.errors)} failed`}
          href={audit("errors")}
          tone={t.errors > 0 ? "warn" : undefined}
        />
        <Stat testId="stat-p95" label="p95 latency" value={formatMs(t.p95Ms)} />
        <Stat
          testId="stat-denials"
          label="Denials"
          value={String(t.denials)}
          hint={t.held ? `${String(t.held)} held for approval` : "refused by policy"}
          href={audit("denials")}
          tone={t.denials > 0 ? "warn" : undefined}
        />
        <Stat
          testId="stat-pending-approvals"
          label={approver ? "Pending approvals" : "Your pending requests"}
          value={String(d.pendingApprovals.count)}
          hint={d.pendingApprovals.oldestAt ? `oldest ${formatMinute(d.pendingApprovals.oldestAt)}` : "none waiting"}
          href={approver ? "/approvals" : undefined}
          tone={d.pendingApprovals.count > 0 ? "warn" : undefined}
        />
        <Stat
          testId="stat-unhealthy-servers"
          label="Unhealthy servers"
          value={String(d.unhealthyServers.length)}
          hint={d.unhealthyServers.length ? d.unhealthyServers.map((s) => s.slug).join(", ") : "all healthy"}
          href={role === "ADMIN" ? "/servers" : undefined}
          tone={d.unhealthyServers.length > 0 ? "bad" : undefined}
        />
        {role === "ADMIN" && (
          <Stat
            testId="stat-pending-reviews"
            label="Definitions to review"
            value={String(d.pendingReviews.count)}
            hint={d.pendingReviews.count ? d.pendingReviews.servers.join(", ") : "none waiting"}
            href={d.pendingReviews.servers.length === 1 ? `/servers/${encodeURIComponent(d.pendingReviews.servers[0]!)}?tab=reviews` : "/servers"}
            tone={d.pendingReviews.count > 0 ? "warn" : undefined}
          />
        )}
      </div>

      {d.unhealthyServers.length > 0 && (
        <div className={`${card} mt-4 border-red-200`}>
          <h3 className="border-b border-slate-100 px-4 py-2.5 text-sm font-semibold text-slate-900">
            Servers that need attention
          </h3>
          <ul className="divide-y divide-slate-100" aria-label="Unhealthy servers">
            {d.unhealthyServers.map((s) => (
              <li
                key={s.slug}
                className="flex flex-wrap items-center gap-x-3 gap-y-1 px-4 py-2.5 text-sm"
                data-testid="unhealthy-server"
                data-slug={s.slug}
              >
                {role === "ADMIN" ? (
                  <Link
                    href={`/servers/${encodeURIComponent(s.slug)}`}
                    className="font-medium text-indigo-700 hover:underline"
                  >
                    {s.name}
                  </Link>
                ) : (
                  <span className="font-medium text-slate-900">{s.name}</span>
                )}
                <code className="text-xs text-slate-500">{s.slug}</code>
                <StatusBadge status={s.status} lastError={s.lastError} />
                {s.lastError && (
                  <span className="min-w-0 basis-full truncate text-xs text-slate-500 sm:basis-auto">
                    {s.lastError}
                  </span>
                )}
              </li>
            ))}
          </ul>
        </div>
      )}

      <DashboardCharts d={d} linked={admin} />
    </>
  );
}

function Stat({
  testId,
  label,
  value,
  hint,
  href,
  tone,
}: {
  testId: string;
  label: string;
  value: string;
  hint?: string;
  href?: string | undefined;
  tone?: "warn" | "bad" | undefined;
}) {
  const color = tone === "bad" ? "text-red-700" : tone === "warn" ? "text-amber-700" : "text-slate-900";
  const body = (
    <>
      <span className="block truncate text-xs font-medium text-slate-500">{label}</span>
      <span className={`mt-1 block text-2xl font-semibold tabular-nums ${color}`} data-testid={`${testId}-value`}>
        {value}
      </span>
      {hint && <span className="mt-0.5 block truncate text-xs text-slate-500">{hint}</span>}
    </>
  );
  const box = `${card} block min-w-0 px-4 py-3`;
  return href ? (
    <Link
      href={href}
      className={`${box} transition hover:border-indigo-300 hover:shadow-md focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-600`}
      data-testid={testId}
    >
      {body}
    </Link>
  ) : (
    <div className={box} data-testid={testId}>
      {body}
    </div>
  );
}
