"use client";
// Agent sessions: what each may use, whether it still works, and a way to cut it off.
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { DataTable, tableRow as t, type Column } from "@/components/data-table";
import { Dialog } from "@/components/dialog";
import { formatDateTime } from "@/components/format";
import { notifyError, notifySuccess } from "@/components/notify";
import { buttonDanger, buttonDangerQuiet, buttonSecondary } from "@/components/ui";
import type { TAgentSession } from "@/lib/policy-schemas";
import { revokeSession, sessionsKey } from "./queries";
import { SessionStatusBadge, sessionStatus } from "./session-status-badge";

const MAX_SHOWN = 3;
/**
 * A cell that shows only from a breakpoint on. Not `tableRow.cell`: its `sm:table-cell` would show the cell
 * from `sm` on while its header cell stays hidden.
 */
const wideCell = (from: string) => `hidden sm:px-4 sm:py-3 sm:align-middle ${from}`;

export function SessionsTable({
  sessions,
  now,
  showUser,
}: {
  sessions: readonly TAgentSession[];
  now: number;
  showUser: boolean;
}) {
  const queryClient = useQueryClient();
  const [toRevoke, setToRevoke] = useState<TAgentSession | null>(null);
  const revoke = useMutation({
    mutationFn: (s: TAgentSession) => revokeSession(s.id),
    onSuccess: async (s) => {
      setToRevoke(null);
      notifySuccess(`Session of “${s.agentId}” revoked`, "The agent is refused from its next request on.");
      await queryClient.invalidateQueries({ queryKey: sessionsKey });
    },
    onError: (err) => notifyError(err, "Could not revoke the session"),
  });

  const columns: Column[] = [
    { label: "Agent" },
    ...(showUser ? [{ label: "User" }] : []),
    { label: "Tools" },
    // With the user column, paths move into the tools cell until the screen is wide enough for both.
    { label: "Paths", className: showUser ? "hidden 2xl:table-cell" : "hidden lg:table-cell" },
    { label: "Status" },
    { label: "Expires", className: "hidden md:table-cell" },
    { label: "Last used", className: "hidden md:table-cell" },
    { label: "Created", className: "hidden 2xl:table-cell" },
    { label: "Actions", srOnly: true, className: "text-right" },
  ];

  return (
    <>
      <DataTable columns={columns} label={showUser ? "Everyone's agent sessions" : "Your agent sessions"}>
        {sessions.map((s) => {
          const status = sessionStatus(s, now);
          return (
            <tr key={s.id} className={t.tr} data-testid="session-row" data-agent={s.agentId} data-id={s.id}>
              <td className={`${t.cell} w-full min-w-0 sm:w-auto sm:max-w-[13rem]`}>
                <div className="truncate font-medium text-slate-900" title={s.agentId}>
                  {s.agentId}
                </div>
                <div className="text-xs text-slate-500">
                  <span className="font-mono">{s.prefix}…</span>
                  <span className="hidden md:inline 2xl:hidden"> · created {formatDateTime(s.createdAt)}</span>
                </div>
                <div className="text-xs text-slate-500 md:hidden">
                  {lifetimeNote(s, status)} · last used {formatDateTime(s.lastUsedAt, "never")}
                </div>
              </td>
              {showUser && (
                <td className={`${t.cell} min-w-0 text-slate-700 sm:max-w-[13rem] sm:min-w-[9rem]`}>
                  <span className="break-all">{s.userEmail}</span>
                </td>
              )}
              <td className={`${t.cell} min-w-0 basis-full sm:max-w-[18rem] sm:min-w-[12rem]`}>
                <span className="sr-only sm:hidden">Tools: </span>
                <NameList items={s.tools} none="No tools" />
                {s.paths.length > 0 && (
                  <div className={`mt-1.5 flex flex-wrap items-center gap-1 ${showUser ? "2xl:hidden" : "lg:hidden"}`}>
                    <span className="text-xs text-slate-500">Paths:</span>
                    <NameList items={s.paths} none="" />
                  </div>
                )}
              </td>
              <td className={`${wideCell(showUser ? "2xl:table-cell" : "lg:table-cell")} max-w-[14rem] min-w-[7rem]`}>
                <NameList items={s.paths} none="None" />
              </td>
              <td className={t.cell}>
                <SessionStatusBadge status={status} />
              </td>
              <td className={`${wideCell("md:table-cell")} min-w-[7.5rem] text-slate-600`}>
                {formatDateTime(s.expiresAt)}
              </td>
              <td className={`${wideCell("md:table-cell")} min-w-[7.5rem] text-slate-600`}>
                {formatDateTime(s.lastUsedAt)}
              </td>
              <td className={`${wideCell("2xl:table-cell")} min-w-[7.5rem] text-slate-600`}>
                {formatDateTime(s.createdAt)}
              </td>
              <td className={`${t.cell} ml-auto sm:text-right`}>
                {status === "active" && (
                  <button
                    type="button"
                    className={buttonDangerQuiet}
                    onClick={() => setToRevoke(s)}
                    aria-label={`Revoke ${s.agentId}`}
                  >
                    Revoke
                  </button>
                )}
              </td>
            </tr>
          );
        })}
      </DataTable>

      <Dialog
        open={toRevoke !== null}
        onClose={() => setToRevoke(null)}
        title="Revoke this session?"
        description={
          <>
            The agent <strong className="font-medium text-slate-900">{toRevoke?.agentId}</strong> ({toRevoke?.prefix}…)
            is refused from its next request on. This cannot be undone; connect it again for a new token.
          </>
        }
        footer={
          <>
            <button
              type="button"
              className={buttonSecondary}
              onClick={() => setToRevoke(null)}
              disabled={revoke.isPending}
            >
              Cancel
            </button>
            <button
              type="button"
              className={buttonDanger}
              onClick={() => toRevoke && revoke.mutate(toRevoke)}
              disabled={revoke.isPending}
            >
              {revoke.isPending ? "Revoking…" : "Revoke session"}
            </button>
          </>
        }
      />
    </>
  );
}

function lifetimeNote(s: TAgentSession, status: TAgentSession["status"]): string {
  if (status === "revoked") return `Revoked ${formatDateTime(s.revokedAt)}`;
  return `${status === "active" ? "Expires" : "Expired"} ${formatDateTime(s.expiresAt)}`;
}

function NameList({ items, none }: { items: readonly string[]; none: string }) {
  if (items.length === 0) return <span className="text-slate-500">{none}</span>;
  const shown = items.slice(0, MAX_SHOWN);
  const rest = items.length - shown.length;
  return (
    <ul className="flex flex-wrap gap-1" title={items.join("\n")}>
      {shown.map((n) => (
        <li
          key={n}
          className="max-w-full rounded bg-slate-100 px-1.5 py-0.5 font-mono text-xs break-all text-slate-700"
        >
          {n}
        </li>
      ))}
      {rest > 0 && <li className="px-1 py-0.5 text-xs text-slate-500">+{rest} more</li>}
    </ul>
  );
}
