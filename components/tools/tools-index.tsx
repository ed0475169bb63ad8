"use client";
import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { useDeferredValue, useState } from "react";
import { EmptyState } from "@/components/empty-state";
import { ServerIcon } from "@/components/icons";
import { PageHeader } from "@/components/page-header";
import { Breadcrumbs } from "@/components/servers/breadcrumbs";
import { listTools, serverHref, toolHref, toolsKey } from "@/components/servers/queries";
import { Switch } from "@/components/switch";
import { buttonSecondary, card, input, responsiveTable as t, selectCompact } from "@/components/ui";
import type { TToolSummary } from "@/lib/schemas";
import { NearDuplicates } from "./near-duplicates";
import { LintCount, TIER_LABEL, TIERS, TierBadge } from "./tier-badge";
import { useUpdateTool } from "./tool-mutations";

type Filters = { text: string; server: string; tier: string; state: "all" | "enabled" | "disabled" | "lint-errors" };

function matches(tool: TToolSummary, f: Filters): boolean {
  if (f.server && tool.server !== f.server) return false;
  if (f.tier && tool.riskTier !== f.tier) return false;
  if (f.state === "enabled" && !tool.enabled) return false;
  if (f.state === "disabled" && tool.enabled) return false;
  if (f.state === "lint-errors" && !tool.lintFindings.some((l) => l.severity === "error")) return false;
  const q = f.text.trim().toLowerCase();
  return !q || [tool.name, tool.title ?? "", tool.description ?? ""].some((s) => s.toLowerCase().includes(q));
}

export function ToolsIndex() {
  const query = useQuery({ queryKey: toolsKey, queryFn: ({ signal }) => listTools(signal) });
  const [filters, setFilters] = useState<Filters>({ text: "", server: "", tier: "", state: "all" });
  const deferred = useDeferredValue(filters);
  const set = (patch: Partial<Filters>) => setFilters((f) => ({ ...f, ...patch }));

  const items = query.data?.items ?? [];
  const servers = [...new Set(items.map((i) => i.server))].sort();
  const shown = items.filter((i) => matches(i, deferred));

  return (
    <>
      <Breadcrumbs items={[{ href: "/servers", label: "Servers & Tools" }, { label: "Tools" }]} />
      <PageHeader
        title="Tools"
        description="Every tool the gateway offers agents, across all servers, with its risk tier and schema lint."
      />
      {query.isPending ? (
        <p className="py-8 text-center text-sm text-slate-500" role="status">
          Loading tools…
        </p>
      ) : query.isError ? (
        <div className={`${card} px-4 py-8 text-center text-sm`} role="alert">
          <p className="text-red-700">Could not load the tools: {query.error.message}</p>
          <button type="button" className={`${buttonSecondary} mt-3`} onClick={() => void query.refetch()}>
            Try again
          </button>
        </div>
      ) : items.length === 0 ? (
        <EmptyState icon={<ServerIcon className="h-6 w-6" />} title="No tools yet">
          <p>Tools appear here once a registered server connects and lists them.</p>
          <p className="pt-2">
            <Link href="/servers" className={buttonSecondary}>
              Go to the servers
            </Link>
          </p>
        </EmptyState>
      ) : (
        <div className="space-y-6">
          {query.data.nearDuplicates.length > 0 && <NearDuplicates pairs={query.data.nearDuplicates} />}
          <section aria-labelledby="tools-heading" className={`${card} min-w-0 overflow-hidden`}>
            <div className="flex flex-col gap-3 border-b border-slate-200 px-4 py-3 lg:flex-row lg:items-center lg:justify-between">
              <h2 id="tools-heading" className="text-base font-semibold text-slate-900">
                {shown.length === items.length
                  ? `All tools (${items.length})`
                  : `${shown.length} of ${items.length} tools`}
              </h2>
              <div className="flex flex-wrap gap-2" role="search" aria-label="Filter tools">
                <input
                  type="search"
                  value={filters.text}
                  onChange={(e) => set({ text: e.target.value })}
                  placeholder="Search name or description"
                  aria-label="Search tools"
                  className={`${input} w-full py-1.5 sm:w-64`}
                />
                <select
                  value={filters.server}
                  onChange={(e) => set({ server: e.target.value })}
                  aria-label="Server"
                  className={`${selectCompact} w-40`}
                >
                  <option value="">All servers</option>
                  {servers.map((s) => (
                    <option key={s} value={s}>
                      {s}
                    </option>
                  ))}
                </select>
                <select
                  value={filters.tier}
                  onChange={(e) => set({ tier: e.target.value })}
                  aria-label="Risk tier"
                  className={selectCompact}
                >
                  <option value="">All tiers</option>
                  {TIERS.map((tier) => (
                    <option key={tier} value={tier}>
                      {TIER_LABEL[tier]}
                    </option>
                  ))}
                </select>
                <select
                  value={filters.state}
                  onChange={(e) => set({ state: e.target.value as Filters["state"] })}
                  aria-label="State"
                  className={`${selectCompact} w-40`}
                >
                  <option value="all">Any state</option>
                  <option value="enabled">Enabled</option>
                  <option value="disabled">Disabled</option>
                  <option value="lint-errors">With lint errors</option>
                </select>
              </div>
            </div>
            {shown.length === 0 ? (
              <p className="px-4 py-8 text-center text-sm text-slate-500">No tool matches these filters.</p>
            ) : (
              <div className={t.wrapper}>
                <table className={t.table} aria-label="Tools">
                  <thead className={t.thead}>
                    <tr>
                      <th scope="col" className={t.th}>
                        Tool
                      </th>
                      <th scope="col" className={`${t.th} hidden md:table-cell`}>
                        Server
                      </th>
                      <th scope="col" className={t.th}>
                        Risk tier
                      </th>
                      <th scope="col" className={t.th}>
                        Lint
                      </th>
                      <th scope="col" className={t.th}>
                        Enabled
                      </th>
                    </tr>
                  </thead>
                  <tbody className={t.tbody}>
                    {shown.map((tool) => (
                      <ToolRow key={tool.name} tool={tool} />
                    ))}
                  </tbody>
                </table>
              </div>
            )}
          </section>
        </div>
      )}
    </>
  );
}

function ToolRow({ tool }: { tool: TToolSummary }) {
  const mutation = useUpdateTool(tool);
  const saving = mutation.isPending ? mutation.variables : undefined;
  return (
    <tr className={`${t.tr} ${tool.enabled ? "" : "bg-slate-50"}`} data-testid="tool-row" data-name={tool.name}>
      <td className={`${t.cell} w-full min-w-0 sm:w-auto sm:max-w-[30rem]`}>
        <Link
          href={toolHref(tool.name)}
          className="font-mono text-sm font-medium break-all text-indigo-700 hover:underline"
        >
          {tool.name}
        </Link>
        {tool.description && (
          <p className="mt-0.5 line-clamp-1 text-xs text-slate-500" title={tool.description}>
            {tool.description}
          </p>
        )}
      </td>
      <td className={`${t.cell} hidden md:table-cell`}>
        <Link href={serverHref(tool.server)} className="font-mono text-sm text-slate-700 hover:underline">
          {tool.server}
        </Link>
      </td>
      <td className={t.cell}>
        <TierBadge tier={tool.riskTier} />
      </td>
      <td className={t.cell}>
        <LintCount findings={tool.lintFindings} />
      </td>
      <td className={`${t.cell} ml-auto`}>
        <Switch
          checked={saving?.enabled ?? tool.enabled}
          label={`${tool.name} enabled`}
          disabled={mutation.isPending}
          onChange={(enabled) => mutation.mutate({ enabled })}
        />
      </td>
    </tr>
  );
}
