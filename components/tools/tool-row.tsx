"use client";
// One tool in a tools table, with its enabled switch: on its server's page by its own name and title, in the
// list across servers by its gateway name beside its server.
import Link from "next/link";
import { tableRow as t, type Column } from "@/components/data-table";
import { UnsandboxedBadge } from "@/components/servers/isolation-badge";
import { serverHref, toolHref } from "@/components/servers/queries";
import { Switch } from "@/components/switch";
import type { TToolSummary } from "@/lib/schemas";
import { LintCount, Tag, TierBadge } from "./tier-badge";
import { useUpdateTool } from "./tool-mutations";

export const toolColumns = (withServer: boolean): Column[] => [
  { label: "Tool" },
  ...(withServer ? [{ label: "Server", className: "hidden md:table-cell" }] : []),
  { label: "Risk tier" },
  { label: "Lint" },
  { label: "Enabled" },
];

export function ToolRow({
  tool,
  withServer,
  serverUnsandboxed = false,
}: {
  tool: TToolSummary;
  withServer: boolean;
  /** Its server runs unsandboxed: the server column carries the warning. */
  serverUnsandboxed?: boolean;
}) {
  const mutation = useUpdateTool(tool);
  // While a change is saving, the switch shows the new value; on failure it falls back to the server's.
  const shownEnabled = (mutation.isPending ? mutation.variables.enabled : undefined) ?? tool.enabled;
  return (
    <tr
      data-testid="tool-row"
      data-name={tool.name}
      className={`${t.tr} ${tool.removed || !tool.enabled ? "bg-slate-50" : ""}`}
    >
      <td className={`${t.cell} w-full min-w-0 sm:w-auto ${withServer ? "sm:max-w-[30rem]" : "sm:max-w-[32rem]"}`}>
        <div className="flex min-w-0 flex-wrap items-baseline gap-x-2">
          <Link
            href={toolHref(tool.name)}
            className="font-mono text-sm font-medium break-all text-indigo-700 hover:underline"
          >
            {withServer ? tool.name : tool.tool}
          </Link>
          {!withServer && tool.title && tool.title !== tool.tool && (
            <span className="text-sm text-slate-600">{tool.title}</span>
          )}
          {tool.removed && <Tag>Removed</Tag>}
        </div>
        {tool.description && (
          <p className="mt-0.5 line-clamp-1 text-xs text-slate-500" title={tool.description}>
            {tool.description}
          </p>
        )}
      </td>
      {withServer && (
        <td className={`${t.cellMd}`}>
          <Link href={serverHref(tool.server)} className="font-mono text-sm text-slate-700 hover:underline">
            {tool.server}
          </Link>
          {serverUnsandboxed && (
            <span className="ml-2">
              <UnsandboxedBadge isolation={{ profile: "none" }} />
            </span>
          )}
        </td>
      )}
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
