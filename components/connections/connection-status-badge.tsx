// A connection's status; "Reconnect needed" stands out: the provider refused a refresh and calls wait for the user.
import type { TConnection, TConnectionStatus } from "./types";
import { CONNECTION_STATUS_LABEL } from "./connection-format";

const STYLE: Record<TConnectionStatus, string> = {
  connected: "bg-emerald-50 text-emerald-700 ring-emerald-600/20",
  needs_reconnect: "bg-amber-100 font-semibold text-amber-900 ring-amber-600/40",
};

export function ConnectionStatusBadge({ status }: { status: TConnectionStatus }) {
  return (
    <span
      className={`inline-flex rounded-md px-2 py-0.5 text-xs font-medium whitespace-nowrap ring-1 ring-inset ${STYLE[status]}`}
      data-testid="connection-status"
      data-status={status}
    >
      {CONNECTION_STATUS_LABEL[status]}
    </span>
  );
}

/** The badge, and under it why a connection needs reconnecting (the provider's refusal), when known. */
export function ConnectionStatusCell({ connection }: { connection: Pick<TConnection, "status" | "lastError"> }) {
  return (
    <>
      <ConnectionStatusBadge status={connection.status} />
      {connection.status === "needs_reconnect" && connection.lastError && (
        <div className="mt-1 max-w-xs text-xs text-amber-900" data-testid="connection-error">
          {connection.lastError}
        </div>
      )}
    </>
  );
}
