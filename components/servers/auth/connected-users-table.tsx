"use client";
// Who is connected to a server with their own account: email, account, status, expiry, last use; an admin may
// disconnect one (revoked at the provider). Never the tokens.
import { useQuery } from "@tanstack/react-query";
import { ConfirmButton } from "@/components/confirm-button";
import { accountLabel } from "@/components/connections/connection-format";
import { ConnectionStatusCell } from "@/components/connections/connection-status-badge";
import {
  disconnect,
  listServerConnections,
  serverConnectionsKey,
  upstreamAuthKey,
} from "@/components/connections/queries";
import { DataTable, Refreshing, tableRow as t, type Column } from "@/components/data-table";
import { formatDateTime } from "@/components/format";
import { LoadFailed, Loading } from "@/components/load-state";
import { notifySuccess } from "@/components/notify";
import type { TServerConnection } from "@/components/connections/types";

const COLUMNS: Column[] = [
  { label: "User" },
  { label: "Account", className: "hidden md:table-cell" },
  { label: "Status" },
  { label: "Expires", className: "hidden md:table-cell" },
  { label: "Last used", className: "hidden md:table-cell" },
  { label: "Actions", srOnly: true, className: "text-right" },
];

export function ConnectedUsers({ server }: { server: { id: string; name: string } }) {
  const query = useQuery({
    queryKey: serverConnectionsKey(server.id),
    queryFn: ({ signal }) => listServerConnections(server.id, signal),
    refetchInterval: 30_000,
  });
  return (
    <section aria-labelledby="connected-users-heading" className="space-y-2">
      <div className="flex items-center justify-between gap-3">
        <h4 id="connected-users-heading" className="text-sm font-semibold text-slate-900">
          Connected users
        </h4>
        <Refreshing when={query.isFetching && !query.isPending} />
      </div>
      {query.isPending ? (
        <Loading what="connected users" />
      ) : query.isError ? (
        <LoadFailed what="the connected users" error={query.error} retry={query.refetch} inCard />
      ) : (
        <ConnectedUsersTable server={server} connections={query.data.connections} />
      )}
    </section>
  );
}

export function ConnectedUsersTable({
  server,
  connections,
}: {
  server: { name: string };
  connections: readonly TServerConnection[];
}) {
  if (connections.length === 0)
    return <p className="text-sm text-slate-600">No user has connected an account to {server.name} yet.</p>;
  return (
    <div className="overflow-x-auto rounded-md ring-1 ring-slate-200">
      <DataTable columns={COLUMNS} label={`Users connected to ${server.name}`}>
        {connections.map((c) => {
          const who = c.userEmail ?? "a removed user";
          return (
            <tr key={c.id} className={t.tr} data-testid="connected-user-row" data-email={c.userEmail ?? undefined}>
              <td className={`${t.cell} w-full min-w-0 font-medium text-slate-900 sm:w-auto`}>{who}</td>
              <td className={`${t.cellMd} text-slate-600`}>{accountLabel(c)}</td>
              <td className={t.cell}>
                <ConnectionStatusCell connection={c} />
              </td>
              <td className={`${t.cellMd} text-slate-600`}>{formatDateTime(c.expiresAt, "No expiry")}</td>
              <td className={`${t.cellMd} text-slate-600`}>{formatDateTime(c.lastUsedAt, "Never")}</td>
              <td className={`${t.cell} ml-auto sm:text-right`}>
                <ConfirmButton
                  label="Disconnect"
                  busyLabel="Disconnecting…"
                  ariaLabel={`Disconnect ${who}`}
                  title={`Disconnect ${who} from ${server.name}?`}
                  description={`Portcullis revokes their tokens at the provider and deletes them. Their agents' calls to ${server.name} are refused until they connect again from their Connections page.`}
                  confirmLabel="Disconnect"
                  confirmBusyLabel="Disconnecting…"
                  mutationFn={() => disconnect(c.id)}
                  onSuccess={() => notifySuccess(`${who} is disconnected from ${server.name}`)}
                  errorContext="Could not disconnect"
                  invalidate={upstreamAuthKey}
                />
              </td>
            </tr>
          );
        })}
      </DataTable>
    </div>
  );
}
