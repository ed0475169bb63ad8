"use client";
// Virtual servers (admins): named compositions of several servers' tools, prompts and resources, each served at
// /mcp/v/<name> with its own instructions, through the same policies and audit as /mcp.
import { useState, useSyncExternalStore } from "react";
import { ConfirmButton } from "@/components/confirm-button";
import { CopyButton } from "@/components/copy-button";
import { DataTable, tableRow as t } from "@/components/data-table";
import { EmptyState } from "@/components/empty-state";
import { ServerIcon } from "@/components/icons";
import { LoadFailed, Loading } from "@/components/load-state";
import { notifySuccess } from "@/components/notify";
import { PageHeader } from "@/components/page-header";
import { buttonPrimary, buttonSecondary, card } from "@/components/ui";
import type { TVirtualServer } from "@/lib/virtual-server-schemas";
import { deleteVirtualServer, useTools, useVirtualServers, virtualServersKey } from "./queries";
import { VirtualServerEditor } from "./virtual-server-editor";

const COLUMNS = [{ label: "Name" }, { label: "Members", className: "hidden md:table-cell" }, { label: "Connect URL" }, { label: "Actions", srOnly: true, className: "text-right" }] as const;

const noSubscription = () => () => undefined;

/** The browser's origin; "" while the page is rendered on the server, which does not know it. */
function useOrigin(): string {
  return useSyncExternalStore(
    noSubscription,
    () => window.location.origin,
    () => "",
  );
}

/** Members by served name; a tool the registry does not serve now (gone, disabled) is marked, as agents will not see it. */
function MemberNames({ members, servedTools }: { members: TVirtualServer["members"]; servedTools: ReadonlySet<string> | undefined }) {
  return (
    <>
      {members.map((m, i) => {
        const unserved = m.kind === "tool" && servedTools !== undefined && !servedTools.has(`${m.server}__${m.name}`);
        return (
          <span key={`${m.kind}:${m.server}:${m.name}`}>
            {i > 0 && ", "}
            {unserved ? (
              <span className="text-amber-700" title={`${m.server}__${m.name} is not served now (removed or disabled)`} data-testid="vs-member-unserved">
                {m.servedAs} (not served)
              </span>
            ) : (
              m.servedAs
            )}
          </span>
        );
      })}
    </>
  );
}

export function VirtualServersView() {
  const query = useVirtualServers();
  const tools = useTools();
  const servedTools = tools.data && new Set(tools.data.items.filter((t) => t.enabled && !t.removed).map((t) => t.name));
  const origin = useOrigin();
  const [editing, setEditing] = useState<TVirtualServer | "new" | null>(null);
  const newButton = (
    <button type="button" className={buttonPrimary} onClick={() => setEditing("new")} data-testid="vs-new">
      New virtual server
    </button>
  );

  return (
    <>
      <PageHeader
        title="Virtual servers"
        description="Compose tools, prompts and resources of several servers under names of your choosing. Agents connect to one virtual server's URL; calls go through the same policies, approvals and audit as /mcp."
        actions={newButton}
      />
      {query.isPending ? (
        <div className={card}>
          <Loading what="the virtual servers" />
        </div>
      ) : query.isError ? (
        <LoadFailed what="the virtual servers" error={query.error} retry={() => query.refetch()} />
      ) : query.data.items.length === 0 ? (
        <EmptyState icon={<ServerIcon className="h-6 w-6" />} title="No virtual servers yet">
          <p>Create one to give an agent only the tools it needs, from several servers, under one URL.</p>
        </EmptyState>
      ) : (
        <div className={card}>
          <DataTable columns={COLUMNS} label="Virtual servers">
            {query.data.items.map((vs) => {
              const url = `${origin}${vs.path}`;
              return (
                <tr key={vs.id} className={t.tr} data-testid="vs-row" data-name={vs.name}>
                  <td className={`${t.cell} w-full min-w-0 sm:w-auto`}>
                    <div className="font-mono font-medium break-all text-slate-900">{vs.name}</div>
                    {vs.description && <div className="mt-0.5 text-xs text-slate-500">{vs.description}</div>}
                  </td>
                  <td className={`${t.cellMd} text-slate-600`} data-testid="vs-members">
                    {vs.members.length ? <MemberNames members={vs.members} servedTools={servedTools} /> : "None"}
                  </td>
                  <td className={t.cell}>
                    <div className="flex items-center gap-2">
                      <code className="font-mono text-xs break-all text-slate-800" data-testid="vs-url">
                        {url}
                      </code>
                      <CopyButton text={url} what="Connect URL" />
                    </div>
                  </td>
                  <td className={`${t.cell} ml-auto sm:text-right`}>
                    <div className="flex justify-end gap-2">
                      <button type="button" className={buttonSecondary} onClick={() => setEditing(vs)} aria-label={`Edit ${vs.name}`} data-testid="vs-edit">
                        Edit
                      </button>
                      <ConfirmButton
                        label="Delete"
                        ariaLabel={`Delete ${vs.name}`}
                        testId="vs-delete"
                        title={`Delete the virtual server ${vs.name}?`}
                        description={<>Its URL stops answering, and agent sessions scoped to it can no longer be used anywhere.</>}
                        confirmLabel="Delete virtual server"
                        confirmBusyLabel="Deleting…"
                        mutationFn={() => deleteVirtualServer(vs.name)}
                        onSuccess={(gone) => notifySuccess(`Virtual server ${gone.name} deleted`)}
                        errorContext={`Could not delete ${vs.name}`}
                        invalidate={virtualServersKey}
                      />
                    </div>
                  </td>
                </tr>
              );
            })}
          </DataTable>
        </div>
      )}
      {editing && <VirtualServerEditor editing={editing === "new" ? null : editing} onClose={() => setEditing(null)} />}
    </>
  );
}
