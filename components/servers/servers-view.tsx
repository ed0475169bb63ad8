"use client";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import Link from "next/link";
import { useState } from "react";
import { EmptyState } from "@/components/empty-state";
import { ServerIcon } from "@/components/icons";
import { Loading, LoadFailed } from "@/components/load-state";
import { PageHeader } from "@/components/page-header";
import { buttonPrimary, buttonSecondary } from "@/components/ui";
import { listServers, pollInterval, serversKey, shareHealth } from "./queries";
import { RegisterServerDialog } from "./register-server-dialog";
import { ServersTable } from "./servers-table";

export function ServersView() {
  const [registering, setRegistering] = useState(false);
  const qc = useQueryClient();
  const query = useQuery({
    queryKey: serversKey,
    queryFn: async ({ signal }) => {
      const data = await listServers(signal);
      shareHealth(qc, data.items);
      return data;
    },
    refetchInterval: (q) => pollInterval(q.state.data?.items.map((s) => s.status) ?? []),
  });
  const register = (text: string) => (
    <button type="button" className={buttonPrimary} onClick={() => setRegistering(true)}>
      {text}
    </button>
  );

  return (
    <>
      <PageHeader
        title="Servers & Tools"
        description="Upstream MCP servers behind the gateway and the tools they expose."
        actions={
          <>
            <Link href="/tools" className={buttonSecondary}>
              All tools
            </Link>
            {register("Register server")}
          </>
        }
      />
      {query.isPending ? (
        <Loading what="servers" />
      ) : query.isError ? (
        <LoadFailed what="the servers" error={query.error} retry={query.refetch} />
      ) : query.data.items.length === 0 ? (
        <EmptyState icon={<ServerIcon className="h-6 w-6" />} title="No upstream MCP servers registered yet">
          <p>
            Registering a server tells Portcullis how to reach it: a local command it starts and talks to over stdio, or
            an HTTP URL. The gateway connects at once, lists the server&apos;s tools and offers them to agents, with
            your policies applied to every call.
          </p>
          <p>Each registered server is listed here with its health, its version and its tools.</p>
          <div className="pt-2">{register("Register your first server")}</div>
        </EmptyState>
      ) : (
        <ServersTable servers={query.data.items} refreshing={query.isFetching} />
      )}
      <RegisterServerDialog open={registering} onClose={() => setRegistering(false)} />
    </>
  );
}
