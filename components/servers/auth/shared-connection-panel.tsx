"use client";
// Shared mode: the one account (a service account) an admin connects for every permitted call, its state, and
// connect / reconnect / disconnect. Never the token.
import { ConfirmButton } from "@/components/confirm-button";
import { accountLabel, issuerHost } from "@/components/connections/connection-format";
import { ConnectionStatusCell } from "@/components/connections/connection-status-badge";
import { disconnect, startSharedConnect, upstreamAuthKey } from "@/components/connections/queries";
import { useAuthorizationRedirect } from "@/components/connections/use-authorization-redirect";
import { DetailFields } from "@/components/detail-fields";
import { formatDateTime } from "@/components/format";
import { notifySuccess } from "@/components/notify";
import { buttonPrimary, buttonSecondary } from "@/components/ui";
import type { TConnection } from "@/components/connections/types";

export function SharedConnectionPanel({
  server,
  shared,
}: {
  server: { id: string; name: string };
  shared: TConnection | null;
}) {
  const connect = useAuthorizationRedirect(startSharedConnect, "Could not connect the shared account");
  const stale = shared?.status === "needs_reconnect";
  return (
    <section aria-labelledby="shared-connection-heading" className="space-y-3" data-testid="shared-connection">
      <h4 id="shared-connection-heading" className="text-sm font-semibold text-slate-900">
        Shared account
      </h4>
      {shared ? (
        <DetailFields
          className="grid grid-cols-1 gap-3 text-sm sm:grid-cols-3"
          items={[
            ["Status", <ConnectionStatusCell connection={shared} />],
            ["Account", accountLabel(shared)],
            ["Provider", <span title={shared.issuer}>{issuerHost(shared.issuer)}</span>],
            ["Scopes", shared.scopes.length ? <span className="font-mono">{shared.scopes.join(" ")}</span> : "—"],
            ["Expires", formatDateTime(shared.expiresAt, "No expiry")],
            ["Last used", formatDateTime(shared.lastUsedAt, "Never")],
          ]}
        />
      ) : (
        <p className="text-sm text-slate-600" data-testid="shared-not-connected">
          No account is connected yet: calls to {server.name} are refused until an admin connects one.
        </p>
      )}
      <div className="flex flex-wrap gap-2">
        <button
          type="button"
          className={!shared || stale ? buttonPrimary : buttonSecondary}
          onClick={() => connect.mutate(server.id)}
          disabled={connect.isPending}
        >
          {connect.isPending ? "Opening sign-in…" : shared ? "Reconnect shared account" : "Connect shared account"}
        </button>
        {shared && (
          <ConfirmButton
            label="Disconnect"
            busyLabel="Disconnecting…"
            ariaLabel="Disconnect the shared account"
            title={`Disconnect ${server.name}'s shared account?`}
            description={`Portcullis revokes the tokens of ${accountLabel(shared)} at the provider and deletes them. Every call to ${server.name} is refused until an admin connects again.`}
            confirmLabel="Disconnect"
            confirmBusyLabel="Disconnecting…"
            mutationFn={() => disconnect(shared.id)}
            onSuccess={() => notifySuccess(`${server.name}'s shared account is disconnected`)}
            errorContext="Could not disconnect"
            invalidate={upstreamAuthKey}
          />
        )}
      </div>
    </section>
  );
}
