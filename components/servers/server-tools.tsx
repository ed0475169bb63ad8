"use client";
import { DataTable } from "@/components/data-table";
import { EmptyState } from "@/components/empty-state";
import { ServerIcon } from "@/components/icons";
import { toolColumns, ToolRow } from "@/components/tools/tool-row";
import { card } from "@/components/ui";
import type { TServer, TToolSummary } from "@/lib/schemas";
import { serverState } from "@/lib/server-state";

const COLUMNS = toolColumns(false);

export function ServerTools({ server, tools }: { server: TServer; tools: readonly TToolSummary[] }) {
  if (tools.length === 0) {
    return (
      <EmptyState icon={<ServerIcon className="h-6 w-6" />} title="No tools discovered">
        <p data-testid="server-no-tools">{serverState(server).noTools}</p>
      </EmptyState>
    );
  }
  // Tools the server no longer offers keep their settings (they come back if it offers them again); list them last.
  const sorted = [...tools].sort((a, b) => Number(a.removed) - Number(b.removed) || a.tool.localeCompare(b.tool));
  return (
    <div className={`${card} min-w-0 overflow-hidden`}>
      <DataTable columns={COLUMNS} label={`Tools of ${server.name}`}>
        {sorted.map((tool) => (
          <ToolRow key={tool.name} tool={tool} withServer={false} />
        ))}
      </DataTable>
    </div>
  );
}
