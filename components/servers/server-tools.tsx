"use client";
import Link from "next/link";
import { EmptyState } from "@/components/empty-state";
import { ServerIcon } from "@/components/icons";
import { Switch } from "@/components/switch";
import { LintCount, Tag, TierBadge } from "@/components/tools/tier-badge";
import { useUpdateTool } from "@/components/tools/tool-mutations";
import { card, responsiveTable as t } from "@/components/ui";
import type { TServer, TToolSummary } from "@/lib/schemas";
import { toolHref } from "./queries";

export function ServerTools({ server, tools }: { server: TServer; tools: readonly TToolSummary[] }) {
  if (tools.length === 0) {
    return (
      <EmptyState icon={<ServerIcon className="h-6 w-6" />} title="No tools discovered">
        <p>
          {server.status === "DOWN"
            ? "The server has not connected yet, so its tools are unknown. Fix the error above and retry."
            : "The server is connected but offers no tools. Its other capabilities (resources, prompts) show under Versions."}
        </p>
      </EmptyState>
    );
  }
  // Tools the server no longer offers keep their settings (they come back if it offers them again); list them last.
  const sorted = [...tools].sort((a, b) => Number(a.removed) - Number(b.removed) || a.tool.localeCompare(b.tool));
  return (
    <div className={`${card} min-w-0 overflow-hidden`}>
      <div className={t.wrapper}>
        <table className={t.table} aria-label={`Tools of ${server.name}`}>
          <thead className={t.thead}>
            <tr>
              <th scope="col" className={t.th}>
                Tool
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
            {sorted.map((tool) => (
              <ToolRow key={tool.name} tool={tool} />
            ))}
          </tbody>
        </table>
      </div>
    </div>
  );
}

function ToolRow({ tool }: { tool: TToolSummary }) {
  const mutation = useUpdateTool(tool);
  const shownEnabled =
    mutation.isPending && mutation.variables.enabled !== undefined ? mutation.variables.enabled : tool.enabled;
  return (
    <tr
      data-testid="tool-row"
      data-name={tool.name}
      className={`${t.tr} ${tool.removed || !tool.enabled ? "bg-slate-50" : ""}`}
    >
      <td className={`${t.cell} w-full min-w-0 sm:w-auto sm:max-w-[32rem]`}>
        <div className="flex min-w-0 flex-wrap items-baseline gap-x-2">
          <Link
            href={toolHref(tool.name)}
            className="font-mono text-sm font-medium break-all text-indigo-700 hover:underline"
          >
            {tool.tool}
          </Link>
          {tool.title && tool.title !== tool.tool && <span className="text-sm text-slate-600">{tool.title}</span>}
          {tool.removed && <Tag>Removed</Tag>}
        </div>
        {tool.description && (
          <p className="mt-0.5 line-clamp-1 text-xs text-slate-500" title={tool.description}>
            {tool.description}
          </p>
        )}
      </td>
      <td className={t.cell}>
        <TierBadge tier={tool.riskTier} />
      </td>
      <td className={t.cell}>
        <LintCount findings={tool.lintFindings} />
      </td>
      <td className={`${t.cell} ml-auto`}>
        <Switch
          checked={shownEnabled}
          label={`${tool.name} enabled`}
          disabled={mutation.isPending || tool.removed}
          title={tool.removed ? "The server no longer offers this tool." : undefined}
          onChange={(enabled) => mutation.mutate({ enabled })}
        />
      </td>
    </tr>
  );
}
