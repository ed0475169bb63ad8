"use client";
// The server page's Authentication card (admins): how the gateway's calls to this server authenticate, the
// provider it discovered, the shared account (shared mode) and who is connected (per_user). Never tokens.
import { useQuery } from "@tanstack/react-query";
import { AUTH_MODE_LABEL } from "@/components/connections/connection-format";
import { getServerAuth, serverAuthKey } from "@/components/connections/queries";
import { Refreshing } from "@/components/data-table";
import { LoadFailed, Loading } from "@/components/load-state";
import { card } from "@/components/ui";
import type { TServer } from "@/lib/schemas";
import type { TServerAuth } from "@/components/connections/types";
import { supportsUpstreamAuth } from "./auth-draft";
import { AuthSettingsForm } from "./auth-settings-form";
import { ConnectedUsers } from "./connected-users-table";
import { SharedConnectionPanel } from "./shared-connection-panel";

export function ServerAuthCard({ server }: { server: Pick<TServer, "id" | "name" | "transport"> }) {
  const query = useQuery({
    queryKey: serverAuthKey(server.id),
    queryFn: ({ signal }) => getServerAuth(server.id, signal),
    // A shared connection's expiry, last use and a refused refresh change on their own.
    refetchInterval: 30_000,
  });
  return (
    <section aria-labelledby="server-auth-heading" className={`${card} max-w-5xl p-5`}>
      <div className="flex items-center justify-between gap-3">
        <h3 id="server-auth-heading" className="text-base font-semibold text-slate-900">
          Authentication
        </h3>
        <Refreshing when={query.isFetching && !query.isPending} />
      </div>
      {query.isPending ? (
        <Loading what="the authentication settings" />
      ) : query.isError ? (
        <LoadFailed what="the authentication settings" error={query.error} retry={query.refetch} inCard />
      ) : (
        <ServerAuthContent server={server} auth={query.data} />
      )}
    </section>
  );
}

export function ServerAuthContent({
  server,
  auth,
}: {
  server: Pick<TServer, "id" | "name" | "transport">;
  auth: TServerAuth;
}) {
  // The form starts again from what is saved whenever that changes (after a save, or another admin's).
  const savedKey = JSON.stringify([auth.mode, auth.registration, auth.clientId, auth.scopes, auth.tokenExchange]);
  return (
    <div className="mt-4 space-y-6">
      <AuthState auth={auth} />
      <AuthSettingsForm
        key={savedKey}
        server={server}
        auth={auth}
        httpServer={supportsUpstreamAuth(server.transport)}
      />
      {auth.mode === "shared" && <SharedConnectionPanel server={server} shared={auth.shared} />}
      {(auth.mode === "per_user" || auth.connectedUsers > 0) && <ConnectedUsers server={server} />}
    </div>
  );
}

function AuthState({ auth }: { auth: TServerAuth }) {
  return (
    <p className="text-sm text-slate-600" data-testid="auth-state">
      Now: <span className="font-medium text-slate-900">{AUTH_MODE_LABEL[auth.mode]}</span>
      {auth.mode !== "none" && (
        <>
          {" · "}
          {auth.issuer ? (
            <>
              provider <span className="font-mono text-slate-900">{auth.issuer}</span>
            </>
          ) : (
            "provider not discovered yet"
          )}
          {auth.mode === "per_user" &&
            ` · ${String(auth.connectedUsers)} user${auth.connectedUsers === 1 ? "" : "s"} connected`}
        </>
      )}
    </p>
  );
}
