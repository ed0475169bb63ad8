"use client";
// The Agents page: connect an agent (a session token limited to tools and paths you pick) and manage the
// sessions. Admins may also see everyone's sessions, block OAuth clients and set how long sessions may live.
import { useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { Refreshing, TableCard } from "@/components/data-table";
import { EmptyState } from "@/components/empty-state";
import { AgentIcon } from "@/components/icons";
import { LoadFailed, Loading } from "@/components/load-state";
import { PageHeader } from "@/components/page-header";
import { Switch } from "@/components/switch";
import { buttonPrimary } from "@/components/ui";
import { ConnectAgentDialog } from "./connect-agent-dialog";
import { OAuthClientsCard } from "./oauth-clients-card";
import { listSessions, sessionListKey } from "./queries";
import { SessionLifetimeCard } from "./session-lifetime-card";
import { SessionsTable } from "./sessions-table";

const EVERYONE_LABEL = "everyone-sessions-label";

export function AgentsView({ isAdmin }: { isAdmin: boolean }) {
  const [connecting, setConnecting] = useState(false);
  const [everyone, setEveryone] = useState(false);
  const all = isAdmin && everyone;
  const sessions = useQuery({
    queryKey: sessionListKey(all),
    queryFn: ({ signal }) => listSessions(all, signal),
    // "Last used" and expiry move on their own.
    refetchInterval: 30_000,
  });
  const connect = (text: string) => (
    <button type="button" className={buttonPrimary} onClick={() => setConnecting(true)}>
      {text}
    </button>
  );

  return (
    <>
      <PageHeader
        title="Agents"
        description="Give an agent its own session token, limited to the tools and paths you pick, and revoke it when you are done."
        actions={connect("Connect an agent")}
      />
      <div className="grid grid-cols-1 gap-6">
        <TableCard
          id="sessions-heading"
          title={all ? "Everyone's sessions" : "Your agent sessions"}
          aside={
            <div className="flex items-center gap-3">
              <Refreshing when={sessions.isFetching && !sessions.isPending} />
              {isAdmin && (
                // The text is visible at every width (a bare switch says nothing on a phone) and names the switch.
                <span className="flex items-center gap-2 text-sm text-slate-700">
                  <Switch checked={everyone} onChange={setEveryone} labelledBy={EVERYONE_LABEL} />
                  <span id={EVERYONE_LABEL}>Everyone&apos;s sessions</span>
                </span>
              )}
            </div>
          }
        >
          {sessions.isPending ? (
            <Loading what="sessions" />
          ) : sessions.isError ? (
            <LoadFailed what="the sessions" error={sessions.error} retry={sessions.refetch} inCard />
          ) : sessions.data.items.length === 0 ? (
            <div className="p-4">
              <EmptyState
                icon={<AgentIcon className="h-6 w-6" />}
                title={all ? "No one has connected an agent yet" : "You have not connected an agent yet"}
              >
                <p>
                  Connecting an agent gives it a session token for the gateway&apos;s MCP endpoint. The token holds only
                  the tools and paths you pick, never more than you hold yourself, and stops working when it expires or
                  you revoke it.
                </p>
                <p>Each session is listed here with what it may use and when it was last used.</p>
                {!all && <div className="pt-2">{connect("Connect your first agent")}</div>}
              </EmptyState>
            </div>
          ) : (
            <SessionsTable sessions={sessions.data.items} now={sessions.dataUpdatedAt} showUser={all} />
          )}
        </TableCard>
        {isAdmin && <OAuthClientsCard />}
        {isAdmin && <SessionLifetimeCard />}
      </div>
      <ConnectAgentDialog open={connecting} onClose={() => setConnecting(false)} />
    </>
  );
}
