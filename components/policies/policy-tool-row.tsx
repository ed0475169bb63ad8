"use client";
// One tool in the Tools tab: tick it for a bulk change, change its tier on its own, open its rules.
import { tableRow as t } from "@/components/data-table";
import { Tag, TierBadge, TIERS } from "@/components/tools/tier-badge";
import { buttonSecondary, selectCompact } from "@/components/ui";
import type { TPolicyTool } from "@/lib/policy-schemas";
import { useSetTier } from "./policy-mutations";
import { TIER_SHORT, type TTier } from "./queries";

export function PolicyToolRow({
  tool,
  selected,
  onSelect,
  onEditRules,
}: {
  tool: TPolicyTool;
  selected: boolean;
  onSelect: (on: boolean) => void;
  onEditRules: () => void;
}) {
  const mutation = useSetTier(tool.name);
  // While a change is saving the select shows the new tier; on failure it falls back to the server's.
  const shownTier = mutation.isPending ? mutation.variables : tool.riskTier;
  return (
    <tr
      data-testid="policy-tool-row"
      data-name={tool.name}
      data-tier={tool.riskTier}
      className={`${t.tr} ${tool.enabled ? "" : "bg-slate-50"} ${selected ? "bg-indigo-50/50" : ""}`}
    >
      <td className={`${t.cell} sm:w-10`}>
        <input
          type="checkbox"
          className="h-4 w-4 rounded border-slate-300 text-indigo-600"
          checked={selected}
          onChange={(e) => onSelect(e.target.checked)}
          aria-label={`Select ${tool.name}`}
        />
      </td>
      {/* On phones the name fills the line beside the checkbox; tier and rules wrap below it. */}
      <td className={`${t.cell} min-w-0 flex-1 basis-[calc(100%-2.5rem)] sm:max-w-[26rem]`}>
        <div className="flex min-w-0 flex-wrap items-baseline gap-x-2">
          <button
            type="button"
            onClick={onEditRules}
            className="text-left font-mono text-sm font-medium break-all text-indigo-700 hover:underline"
          >
            {tool.name}
          </button>
          {!tool.enabled && <Tag>Disabled</Tag>}
        </div>
        {tool.title && <p className="mt-0.5 truncate text-xs text-slate-500">{tool.title}</p>}
      </td>
      {/* Not t.cell: its sm:table-cell would show the cell before its column's header does. */}
      <td className="hidden px-4 py-3 align-middle font-mono text-sm text-slate-700 md:table-cell">
        {tool.serverSlug}
      </td>
      <td className="sm:hidden lg:table-cell lg:px-4 lg:py-3 lg:align-middle">
        <span className="inline-flex items-center gap-1.5">
          <TierBadge tier={tool.riskTier} />
          {tool.tierOverride && (
            <span
              className="text-xs text-slate-500"
              title="Set by an admin rather than derived from the tool's annotations"
            >
              (set by admin)
            </span>
          )}
        </span>
      </td>
      <td className={t.cell}>
        <select
          aria-label={`Risk tier of ${tool.name}`}
          value={shownTier}
          disabled={mutation.isPending}
          onChange={(e) => mutation.mutate(e.target.value as TTier)}
          className={selectCompact}
        >
          {TIERS.map((tier) => (
            <option key={tier} value={tier}>
              {TIER_SHORT[tier]}
            </option>
          ))}
        </select>
      </td>
      <td className={`${t.cell} ml-auto`}>
        <span className="inline-flex items-center gap-2 whitespace-nowrap">
          <span className="text-sm text-slate-700">
            <span data-testid="rule-count">{tool.ruleCount}</span> rule{tool.ruleCount === 1 ? "" : "s"}
          </span>
          <button
            type="button"
            className={`${buttonSecondary} py-1`}
            onClick={onEditRules}
            aria-label={`Edit rules of ${tool.name}`}
          >
            Edit
          </button>
        </span>
      </td>
    </tr>
  );
}
