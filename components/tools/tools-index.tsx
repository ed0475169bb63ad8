"use client";
import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { useDeferredValue, useState } from "react";
import { DataTable } from "@/components/data-table";
import { EmptyState } from "@/components/empty-state";
import { ServerIcon } from "@/components/icons";
import { Loading, LoadFailed } from "@/components/load-state";
import { PageHeader } from "@/components/page-header";
import { Breadcrumbs } from "@/components/servers/breadcrumbs";
import { listServers, listTools, serversKey, toolsKey } from "@/components/servers/queries";
import { buttonSecondary, card, input, selectCompact } from "@/components/ui";
import type { TToolSummary } from "@/lib/schemas";
import { NearDuplicates } from "./near-duplicates";
import { TIER_LABEL, TIERS } from "./tier-badge";
import { toolColumns, ToolRow } from "./tool-row";

const COLUMNS = toolColumns(true);

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
  // Servers whose process runs without a sandbox, so their tools carry the warning too.
  const serverList = useQuery({ queryKey: serversKey, queryFn: ({ signal }) => listServers(signal) });
  const unsandboxed = new Set(
    serverList.data?.items.filter((s) => s.isolation?.profile === "none").map((s) => s.slug) ?? [],
  );

  return (
    <>
      <Breadcrumbs items={[{ href: "/servers", label: "Servers & Tools" }, { label: "Tools" }]} />
      <PageHeader
        title="Tools"
        description="Every tool the gateway offers agents, across all servers, with its risk tier and schema lint."
      />
      {query.isPending ? (
        <Loading what="tools" />
      ) : query.isError ? (
        <LoadFailed what="the tools" error={query.error} retry={query.refetch} />
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
              <DataTable columns={COLUMNS} label="Tools">
                {shown.map((tool) => (
                  <ToolRow key={tool.name} tool={tool} withServer serverUnsandboxed={unsandboxed.has(tool.server)} />
                ))}
              </DataTable>
            )}
          </section>
        </div>
      )}
    </>
  );
}
