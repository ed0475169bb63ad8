"use client";
// The Connections page, for every signed-in user: the accounts their agents' calls use on servers that act as
// each user (per_user mode), the servers still to connect, and what the OAuth callback or an agent's
// `upstream_auth_required` link (`?server=<slug>`) brought them here for.
import { useQuery } from "@tanstack/react-query";
import { Refreshing, TableCard } from "@/components/data-table";
import { EmptyState } from "@/components/empty-state";
import { LinkIcon } from "@/components/icons";
import { LoadFailed, Loading } from "@/components/load-state";
import { PageHeader } from "@/components/page-header";
import type { TConnectionList } from "./types";
import { AvailableServersList } from "./available-servers-list";
import { CallbackNotice, type CallbackOutcome } from "./callback-notice";
import { serverFocus } from "./connection-format";
import { MyConnectionsTable } from "./my-connections-table";
import { listMyConnections, myConnectionsKey } from "./queries";
import { ServerFocusNotice } from "./server-focus-notice";

export function ConnectionsView({ outcome, focusSlug }: { outcome: CallbackOutcome; focusSlug: string | null }) {
  const query = useQuery({
    queryKey: myConnectionsKey,
    queryFn: ({ signal }) => listMyConnections(signal),
    // Last use, expiry and a refused refresh change on their own.
    refetchInterval: 30_000,
  });
  return (
    <>
      <PageHeader
        title="Connections"
        description="Your own accounts on the servers that act as you. Your agents' calls to such a server use the account you connect here, never anyone else's."
      />
      {query.isPending ? (
        <Loading what="your connections" />
      ) : query.isError ? (
        <LoadFailed what="your connections" error={query.error} retry={query.refetch} />
      ) : (
        <ConnectionsContent data={query.data} outcome={outcome} focusSlug={focusSlug} refreshing={query.isFetching} />
      )}
    </>
  );
}

export function ConnectionsContent({
  data,
  outcome,
  focusSlug,
  refreshing = false,
}: {
  data: TConnectionList;
  outcome: CallbackOutcome;
  focusSlug: string | null;
  refreshing?: boolean;
}) {
  const names = new Map([
    ...data.connections.map((c) => [c.serverSlug, c.serverName] as const),
    ...data.available.map((s) => [s.serverSlug, s.serverName] as const),
  ]);
  const nameOf = (slug: string) => names.get(slug) ?? slug;
  const focus = focusSlug ? serverFocus(data, focusSlug) : null;
  const focusConnectionId = focus?.kind === "reconnect" || focus?.kind === "connected" ? focus.connection.id : null;
  const empty = data.connections.length === 0 && data.available.length === 0;

  return (
    <>
      <CallbackNotice
        outcome={outcome}
        nameOf={nameOf}
        isOwn={(slug) => data.connections.some((c) => c.serverSlug === slug)}
      />
      {/* After a failed callback its alert says it all; the server's button is still highlighted to try again. */}
      {!outcome && <ServerFocusNotice focus={focus} />}
      {empty ? (
        <EmptyState icon={<LinkIcon className="h-6 w-6" />} title="No server asks for your own account">
          <p>
            When an admin sets a server to act as each user, it is listed here and you connect your account to it once.
            Until then your agents&apos; calls use the accounts the admins set up.
          </p>
        </EmptyState>
      ) : (
        <div className="grid grid-cols-1 gap-6">
          {data.connections.length > 0 && (
            <TableCard id="my-connections-heading" title="Your connections" aside={<Refreshing when={refreshing} />}>
              <MyConnectionsTable connections={data.connections} focusId={focusConnectionId} />
            </TableCard>
          )}
          {data.available.length > 0 && (
            <TableCard id="available-servers-heading" title="Servers to connect">
              <p className="border-b border-slate-100 px-4 py-2 text-sm text-slate-600">
                These servers act as each user. Connecting signs you in at their provider; Portcullis keeps the tokens
                encrypted and never shows them.
              </p>
              <AvailableServersList
                servers={data.available}
                focusId={focus?.kind === "connect" ? focus.serverId : null}
              />
            </TableCard>
          )}
        </div>
      )}
    </>
  );
}
