"use client";
// The Tools tab: every tool with its tier and rule count. Tick tools to give them one tier at once, change a
// single tier in its row, or open a tool's rules.
import { useQuery } from "@tanstack/react-query";
import { useDeferredValue, useState } from "react";
import { DataTable, Refreshing, TableCard, type Column } from "@/components/data-table";
import { EmptyState } from "@/components/empty-state";
import { PolicyIcon } from "@/components/icons";
import { Loading, LoadFailed } from "@/components/load-state";
import { TIERS } from "@/components/tools/tier-badge";
import { buttonPrimary, input, selectCompact } from "@/components/ui";
import type { TPolicyTool } from "@/lib/policy-schemas";
import { useSetTiers } from "./policy-mutations";
import { PolicyToolRow } from "./policy-tool-row";
import { listPolicyTools, policyToolsKey, TIER_SHORT, type TTier } from "./queries";
import { RuleEditor } from "./rule-editor";

const COLUMNS: Column[] = [
  { label: "Select", srOnly: true, className: "w-10" },
  { label: "Tool" },
  { label: "Server", className: "hidden md:table-cell" },
  // From sm to lg the select alone shows the tier, so the table fits a tablet.
  { label: "Risk tier", className: "hidden lg:table-cell" },
  { label: "Change tier" },
  { label: "Rules" },
];

function matches(tool: TPolicyTool, text: string): boolean {
  const q = text.trim().toLowerCase();
  return !q || [tool.name, tool.title ?? "", tool.serverSlug].some((s) => s.toLowerCase().includes(q));
}

export function PolicyTools() {
  const query = useQuery({ queryKey: policyToolsKey, queryFn: ({ signal }) => listPolicyTools(signal) });
  const [selected, setSelected] = useState<ReadonlySet<string>>(new Set());
  const [bulkTier, setBulkTier] = useState<TTier>("HIGH");
  const [editing, setEditing] = useState<string | null>(null);
  const [text, setText] = useState("");
  const deferredText = useDeferredValue(text);
  const bulk = useSetTiers(() => setSelected(new Set()));

  if (query.isPending) return <Loading what="tools" />;
  if (query.isError) return <LoadFailed what="the tools" error={query.error} retry={query.refetch} />;
  const items = query.data.items;
  if (items.length === 0) {
    return (
      <EmptyState icon={<PolicyIcon className="h-6 w-6" />} title="No tools yet">
        <p>
          Tools appear here once a registered server connects and lists them; then you can set their tiers and rules.
        </p>
      </EmptyState>
    );
  }

  const shown = items.filter((t) => matches(t, deferredText));
  // Only tools still listed count as selected, so a tool that disappeared cannot be changed by mistake.
  const chosen = items.filter((t) => selected.has(t.name)).map((t) => t.name);
  const allShownSelected = shown.length > 0 && shown.every((t) => selected.has(t.name));

  function toggle(name: string, on: boolean) {
    setSelected((s) => {
      const next = new Set(s);
      if (on) next.add(name);
      else next.delete(name);
      return next;
    });
  }
  function toggleAll(on: boolean) {
    setSelected((s) => {
      const next = new Set(s);
      for (const t of shown)
        if (on) next.add(t.name);
        else next.delete(t.name);
      return next;
    });
  }

  return (
    <>
      <TableCard
        id="policy-tools-heading"
        title={shown.length === items.length ? `Tools (${items.length})` : `${shown.length} of ${items.length} tools`}
        aside={<Refreshing when={query.isFetching} />}
      >
        <div className="flex flex-col gap-3 border-b border-slate-200 px-4 py-3 lg:flex-row lg:items-center lg:justify-between">
          <div className="flex flex-wrap items-center gap-3">
            <label className="inline-flex items-center gap-2 text-sm text-slate-700">
              <input
                type="checkbox"
                className="h-4 w-4 rounded border-slate-300 text-indigo-600"
                checked={allShownSelected}
                onChange={(e) => toggleAll(e.target.checked)}
              />
              Select all shown
            </label>
            <input
              type="search"
              value={text}
              onChange={(e) => setText(e.target.value)}
              placeholder="Search name, title or server"
              aria-label="Search tools"
              className={`${input} w-full py-1.5 sm:w-64`}
            />
          </div>
          <form method="post"
            className="flex flex-wrap items-center gap-2"
            aria-label="Set the tier of the selected tools"
            onSubmit={(e) => {
              e.preventDefault();
              if (chosen.length) bulk.mutate({ tools: chosen, riskTier: bulkTier });
            }}
          >
            <span className="text-sm text-slate-600" aria-live="polite" data-testid="selected-count">
              {chosen.length} selected
            </span>
            <select
              aria-label="Tier for the selected tools"
              value={bulkTier}
              onChange={(e) => setBulkTier(e.target.value as TTier)}
              className={selectCompact}
            >
              {TIERS.map((t) => (
                <option key={t} value={t}>
                  {TIER_SHORT[t]}
                </option>
              ))}
            </select>
            <button
              type="submit"
              className={`${buttonPrimary} py-1.5`}
              disabled={chosen.length === 0 || bulk.isPending}
            >
              {bulk.isPending ? "Setting…" : "Set tier"}
            </button>
          </form>
        </div>
        {shown.length === 0 ? (
          <p className="px-4 py-8 text-center text-sm text-slate-500">No tool matches “{text}”.</p>
        ) : (
          <DataTable columns={COLUMNS} label="Tools and their policy">
            {shown.map((tool) => (
              <PolicyToolRow
                key={tool.name}
                tool={tool}
                selected={selected.has(tool.name)}
                onSelect={(on) => toggle(tool.name, on)}
                onEditRules={() => setEditing(tool.name)}
              />
            ))}
          </DataTable>
        )}
      </TableCard>
      <RuleEditor tool={editing} onClose={() => setEditing(null)} />
    </>
  );
}
