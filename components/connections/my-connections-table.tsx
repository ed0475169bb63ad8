"use client";
// The signed-in user's own connections: which account of which provider each server's calls use, its scopes,
// expiry and last use, with reconnect (a new authorization) and disconnect (revoked at the provider).
import { ConfirmButton } from "@/components/confirm-button";
import { DataTable, tableRow as t, type Column } from "@/components/data-table";
import { formatDateTime } from "@/components/format";
import { notifySuccess } from "@/components/notify";
import { buttonPrimary, buttonSecondary } from "@/components/ui";
import type { TConnection } from "./types";
import { accountLabel, issuerHost, sortConnections } from "./connection-format";
import { ConnectionStatusCell } from "./connection-status-badge";
import { highlightRing } from "./highlight";
import { disconnect, startConnect, upstreamAuthKey } from "./queries";
import { useAuthorizationRedirect } from "./use-authorization-redirect";

const COLUMNS: Column[] = [
  { label: "Server" },
  { label: "Account" },
  { label: "Scopes", className: "hidden md:table-cell" },
  { label: "Expires", className: "hidden md:table-cell" },
  { label: "Last used", className: "hidden md:table-cell" },
  { label: "Status" },
  { label: "Actions", srOnly: true, className: "text-right" },
];

export function MyConnectionsTable({
  connections,
  focusId,
}: {
  connections: readonly TConnection[];
  /** The connection `?server=` points at: its Reconnect button is highlighted and focused. */
  focusId: string | null;
}) {
  const reconnect = useAuthorizationRedirect(startConnect, "Could not reconnect");
  return (
    <DataTable columns={COLUMNS} label="Your connections">
      {sortConnections(connections).map((c) => {
        const focused = c.id === focusId;
        const stale = c.status === "needs_reconnect";
        return (
          <tr
            key={c.id}
            className={t.tr}
            data-testid="connection-row"
            data-server={c.serverSlug}
            data-status={c.status}
          >
            <td className={`${t.cell} w-full min-w-0 sm:w-auto`}>
              <div className="font-medium text-slate-900">{c.serverName}</div>
              <div className="font-mono text-xs text-slate-500">{c.serverSlug}</div>
            </td>
            <td className={`${t.cell} min-w-0`}>
              <div className="truncate text-slate-900" data-testid="connection-account">
                {accountLabel(c)}
              </div>
              <div className="truncate text-xs text-slate-500" title={c.issuer}>
                {issuerHost(c.issuer)}
              </div>
            </td>
            <td className={`${t.cellMd} text-xs text-slate-600`}>
              {c.scopes.length ? <span className="font-mono">{c.scopes.join(" ")}</span> : "—"}
            </td>
            <td className={`${t.cellMd} text-slate-600`}>{formatDateTime(c.expiresAt, "No expiry")}</td>
            <td className={`${t.cellMd} text-slate-600`}>{formatDateTime(c.lastUsedAt, "Never")}</td>
            <td className={t.cell}>
              <ConnectionStatusCell connection={c} />
            </td>
            <td className={`${t.cell} ml-auto sm:text-right`}>
              <div className="flex justify-end gap-2">
                <button
                  type="button"
                  className={`${stale ? buttonPrimary : buttonSecondary} ${focused ? highlightRing : ""}`}
                  onClick={() => reconnect.mutate(c.serverId)}
                  disabled={reconnect.isPending}
                  aria-label={`Reconnect ${c.serverName}`}
                  data-highlighted={focused || undefined}
                  autoFocus={focused}
                >
                  {reconnect.isPending && reconnect.variables === c.serverId ? "Opening sign-in…" : "Reconnect"}
                </button>
                <ConfirmButton
                  label="Disconnect"
                  busyLabel="Disconnecting…"
                  ariaLabel={`Disconnect ${c.serverName}`}
                  title={`Disconnect ${c.serverName}?`}
                  description={
                    <>
                      Portcullis revokes the tokens of{" "}
                      <strong className="font-medium text-slate-900">{accountLabel(c)}</strong> at the provider and
                      deletes them. Your agents&apos; calls to {c.serverName} are refused until you connect again.
                    </>
                  }
                  confirmLabel="Disconnect"
                  confirmBusyLabel="Disconnecting…"
                  mutationFn={() => disconnect(c.id)}
                  onSuccess={() => notifySuccess(`Disconnected from ${c.serverName}`)}
                  errorContext="Could not disconnect"
                  invalidate={upstreamAuthKey}
                />
              </div>
            </td>
          </tr>
        );
      })}
    </DataTable>
  );
}
