"use client";
// Admins: the OAuth clients that registered with the embedded authorization server or connected by a client ID
// metadata document, with their live sessions, and a block that refuses a client and revokes its sessions.
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { isApiError } from "@/components/api-client";
import { DataTable, Refreshing, TableCard, tableRow as t, type Column } from "@/components/data-table";
import { Dialog } from "@/components/dialog";
import { formatDateTime } from "@/components/format";
import { LoadFailed, Loading } from "@/components/load-state";
import { notifyError, notifySuccess } from "@/components/notify";
import { buttonDanger, buttonDangerQuiet, buttonSecondary, hint, input, label } from "@/components/ui";
import type { TOAuthClient } from "@/lib/oauth-schemas";
import { blockOAuthClient, listOAuthClients, oauthClientsKey, sessionsKey, unblockOAuthClient } from "./queries";

const KIND = { registered: "Registered", metadata_document: "Metadata document" } as const;

export function OAuthClientsCard() {
  const queryClient = useQueryClient();
  const clients = useQuery({
    queryKey: oauthClientsKey,
    queryFn: ({ signal }) => listOAuthClients(signal),
    refetchInterval: 30_000,
  });
  const [toBlock, setToBlock] = useState<TOAuthClient | null>(null);
  const [reason, setReason] = useState("");
  const refresh = () =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: oauthClientsKey }),
      queryClient.invalidateQueries({ queryKey: sessionsKey }),
    ]);
  const block = useMutation({
    mutationFn: (c: TOAuthClient) =>
      blockOAuthClient({ clientId: c.clientId, ...(reason.trim() && { reason: reason.trim() }) }),
    onSuccess: async (r) => {
      setToBlock(null);
      setReason("");
      notifySuccess(
        "Client blocked",
        `It can no longer authorize or refresh; ${String(r.revokedSessions)} session(s) revoked.`,
      );
      await refresh();
    },
    onError: (err) => notifyError(err, "Could not block the client"),
  });
  const unblock = useMutation({
    mutationFn: (c: TOAuthClient) => unblockOAuthClient(c.clientId),
    onSuccess: async () => {
      notifySuccess("Client unblocked", "It may ask users to authorize it again.");
      await refresh();
    },
    onError: (err) => notifyError(err, "Could not unblock the client"),
  });

  // Without the embedded authorization server (no PUBLIC_URL, or an external issuer) there is nothing to show.
  if (clients.isError && isApiError(clients.error) && clients.error.status === 404) return null;
  const columns: Column[] = [
    { label: "Client" },
    { label: "Kind", className: "hidden md:table-cell" },
    { label: "Sessions" },
    { label: "Last used", className: "hidden md:table-cell" },
    { label: "Actions", srOnly: true, className: "text-right" },
  ];

  return (
    <TableCard
      id="oauth-clients-heading"
      title="OAuth clients"
      aside={<Refreshing when={clients.isFetching && !clients.isPending} />}
    >
      {clients.isPending ? (
        <Loading what="OAuth clients" />
      ) : clients.isError ? (
        <LoadFailed what="the OAuth clients" error={clients.error} retry={clients.refetch} inCard />
      ) : clients.data.length === 0 ? (
        <p className="px-4 py-6 text-sm text-slate-500">No OAuth client has registered or connected yet.</p>
      ) : (
        <DataTable columns={columns} label="OAuth clients">
          {clients.data.map((c) => (
            <tr key={c.clientId} className={t.tr} data-testid="oauth-client-row" data-client-id={c.clientId}>
              <td className={`${t.cell} w-full min-w-0 sm:w-auto sm:max-w-[22rem]`}>
                <div className="truncate font-medium text-slate-900" title={c.name}>
                  {c.name}
                  {c.blocked && (
                    <span className="ml-2 rounded bg-red-50 px-1.5 py-0.5 text-xs font-medium text-red-700">
                      Blocked
                    </span>
                  )}
                </div>
                <div className="truncate font-mono text-xs text-slate-500" title={c.clientId}>
                  {c.clientId}
                </div>
                {c.blocked?.reason && <div className="text-xs text-slate-500">Blocked: {c.blocked.reason}</div>}
              </td>
              <td className={`${t.cellMd} text-slate-600`}>{KIND[c.kind]}</td>
              <td className={`${t.cell} text-slate-700`}>{c.activeSessions}</td>
              <td className={`${t.cellMd} text-slate-600`}>{formatDateTime(c.lastUsedAt, "never")}</td>
              <td className={`${t.cell} ml-auto sm:text-right`}>
                {c.blocked ? (
                  <button
                    type="button"
                    className={buttonSecondary}
                    onClick={() => unblock.mutate(c)}
                    disabled={unblock.isPending}
                    aria-label={`Unblock ${c.name}`}
                  >
                    Unblock
                  </button>
                ) : (
                  <button
                    type="button"
                    className={buttonDangerQuiet}
                    onClick={() => setToBlock(c)}
                    aria-label={`Block ${c.name}`}
                  >
                    Block
                  </button>
                )}
              </td>
            </tr>
          ))}
        </DataTable>
      )}
      <Dialog
        open={toBlock !== null}
        onClose={() => setToBlock(null)}
        title="Block this client?"
        description={
          <>
            <strong className="font-medium text-slate-900">{toBlock?.name}</strong> can no longer authorize, exchange a
            code or refresh a token, and its {toBlock?.activeSessions ?? 0} live session(s) are revoked now. You can
            unblock it later; users then authorize it again.
          </>
        }
        footer={
          <>
            <button
              type="button"
              className={buttonSecondary}
              onClick={() => setToBlock(null)}
              disabled={block.isPending}
            >
              Cancel
            </button>
            <button
              type="button"
              className={buttonDanger}
              onClick={() => toBlock && block.mutate(toBlock)}
              disabled={block.isPending}
            >
              {block.isPending ? "Blocking…" : "Block client"}
            </button>
          </>
        }
      >
        <label className={label} htmlFor="oauth-block-reason">
          Reason (optional)
        </label>
        <input
          id="oauth-block-reason"
          className={`${input} mt-1`}
          maxLength={500}
          value={reason}
          onChange={(e) => setReason(e.target.value)}
        />
        <p className={hint}>Kept in the audit log and shown here.</p>
      </Dialog>
    </TableCard>
  );
}
