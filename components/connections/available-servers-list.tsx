"use client";
// Servers that act as each user's own account and that this user has not connected yet.
import { buttonPrimary } from "@/components/ui";
import type { TAvailableServer } from "./types";
import { highlightRing } from "./highlight";
import { startConnect } from "./queries";
import { useAuthorizationRedirect } from "./use-authorization-redirect";

export function AvailableServersList({
  servers,
  focusId,
}: {
  servers: readonly TAvailableServer[];
  /** The server `?server=` points at: its Connect button is highlighted and focused. */
  focusId: string | null;
}) {
  const connect = useAuthorizationRedirect(startConnect, "Could not connect");
  return (
    <ul className="divide-y divide-slate-100" aria-label="Servers to connect">
      {[...servers]
        .sort((a, b) => a.serverName.localeCompare(b.serverName))
        .map((s) => {
          const focused = s.serverId === focusId;
          return (
            <li
              key={s.serverId}
              className={`flex flex-wrap items-center justify-between gap-3 px-4 py-3 ${focused ? "bg-indigo-50/60" : ""}`}
              data-testid="available-server"
              data-server={s.serverSlug}
            >
              <div className="min-w-0">
                <div className="font-medium text-slate-900">{s.serverName}</div>
                <div className="font-mono text-xs text-slate-500">{s.serverSlug}</div>
              </div>
              <button
                type="button"
                className={`${buttonPrimary} ${focused ? highlightRing : ""}`}
                onClick={() => connect.mutate(s.serverId)}
                disabled={connect.isPending}
                aria-label={`Connect ${s.serverName}`}
                data-highlighted={focused || undefined}
                autoFocus={focused}
              >
                {connect.isPending && connect.variables === s.serverId ? "Opening sign-in…" : "Connect"}
              </button>
            </li>
          );
        })}
    </ul>
  );
}
