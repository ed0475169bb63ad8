"use client";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import Link from "next/link";
import { isApiError } from "@/components/api-client";
import { EmptyState } from "@/components/empty-state";
import { ServerIcon } from "@/components/icons";
import { Loading, LoadFailed } from "@/components/load-state";
import { PageHeader } from "@/components/page-header";
import { Tabs, type Tab } from "@/components/tabs";
import { buttonPrimary } from "@/components/ui";
import { Breadcrumbs } from "./breadcrumbs";
import { CanaryPanel } from "./canary-panel";
import { IsolationBadge } from "./isolation-badge";
import { ConnectionSummary, RecentError } from "./connection-summary";
import { PackageCard } from "./package-card";
import { ProcessCard } from "./process-stats";
import { getServer, pollInterval, serverKey, shareHealth, type TServerWithTools } from "./queries";
import { ServerActions } from "./server-actions";
import { ServerAuthCard } from "./auth/server-auth-card";
import { ServerLogs } from "./server-logs";
import { ServerOfferings } from "./server-offerings";
import { ServerReviews } from "./server-reviews";
import { ServerSettings } from "./server-settings";
import { ServerTools } from "./server-tools";
import { ServerVersions } from "./server-versions";
import { PHASE_LABEL } from "./register-phases";
import { BuiltinBadge, StatusBadge } from "./status-badge";
import { TRANSPORT_LABEL } from "./transport-picker";
import { VersionLabel } from "./version-label";

export function ServerDetail({ slug }: { slug: string }) {
  const qc = useQueryClient();
  const query = useQuery({
    queryKey: serverKey(slug),
    queryFn: async ({ signal }) => {
      const data = await getServer(slug, signal);
      shareHealth(qc, [data.server]);
      return data;
    },
    refetchInterval: (q) => (q.state.data ? pollInterval([q.state.data.server.status]) : false),
  });

  if (query.isPending) {
    return (
      <>
        <Breadcrumbs items={[{ href: "/servers", label: "Servers & Tools" }, { label: slug }]} />
        <Loading what="the server" />
      </>
    );
  }
  if (query.isError) {
    const missing = isApiError(query.error) && query.error.status === 404;
    return (
      <>
        <Breadcrumbs items={[{ href: "/servers", label: "Servers & Tools" }, { label: slug }]} />
        {missing ? (
          <EmptyState icon={<ServerIcon className="h-6 w-6" />} title={`There is no server “${slug}”`}>
            <p>It may have been removed. The servers list shows every server that is registered.</p>
            <p className="pt-2">
              <Link href="/servers" className={buttonPrimary}>
                Back to the servers
              </Link>
            </p>
          </EmptyState>
        ) : (
          <LoadFailed what="the server" error={query.error} retry={query.refetch} />
        )}
      </>
    );
  }
  return <ServerPage data={query.data} />;
}

function ServerPage({ data: { server, tools } }: { data: TServerWithTools }) {
  const live = tools.filter((t) => !t.removed);
  // The gateway's own tools: nothing is launched or connected, so only its tools (and versions) are shown.
  const builtin = server.transport === "builtin";
  const sections: Tab[] = [
    {
      id: "tools",
      label: <TabLabel text="Tools" count={live.length} />,
      panel: <ServerTools server={server} tools={tools} />,
    },
    { id: "reviews", label: <TabLabel text="Reviews" count={server.pendingReviews} />, panel: <ServerReviews server={server} /> },
    { id: "offerings", label: "Resources & prompts", panel: <ServerOfferings server={server} /> },
    { id: "versions", label: "Versions", panel: <ServerVersions server={server} /> },
    {
      id: "canary",
      label: (
        <>
          Canary
          {server.canaryVersion && (
            <span className="rounded bg-amber-100 px-1.5 text-xs text-amber-800">{server.canaryPercent}%</span>
          )}
        </>
      ),
      panel: <CanaryPanel server={server} />,
    },
    { id: "logs", label: "Logs", panel: <ServerLogs server={server} /> },
    { id: "auth", label: "Authentication", panel: <ServerAuthCard server={server} /> },
    { id: "settings", label: "Settings", panel: <ServerSettings server={server} /> },
  ];
  return (
    <>
      <Breadcrumbs items={[{ href: "/servers", label: "Servers & Tools" }, { label: server.name }]} />
      <PageHeader
        title={server.name}
        description={
          <span className="flex flex-wrap items-center gap-x-3 gap-y-1.5">
            {builtin ? <BuiltinBadge /> : <StatusBadge status={server.status} lastError={server.lastError} />}
            {server.phase && (
              <span className="text-sky-700" role="status" data-testid="server-phase">
                {PHASE_LABEL[server.phase]}…
              </span>
            )}
            <span className="font-mono text-slate-700">{server.slug}</span>
            <span>{TRANSPORT_LABEL[server.transport]}</span>
            <IsolationBadge isolation={server.isolation} />
            <VersionLabel server={server} inline />
          </span>
        }
        actions={builtin ? undefined : <ServerActions server={server} toolCount={live.length} />}
      />
      {!builtin && (
        <>
          {server.lastError && <RecentError server={server} />}
          <ConnectionSummary server={server} />
          <PackageCard server={server} />
          <ProcessCard server={server} />
        </>
      )}
      <div className="mt-6">
        <Tabs
          label={`${server.name} sections`}
          tabs={builtin ? sections.filter((t) => t.id === "tools" || t.id === "versions") : sections}
        />
      </div>
    </>
  );
}

function TabLabel({ text, count }: { text: string; count: number }) {
  return (
    <>
      {text}
      <span className="rounded-full bg-slate-100 px-2 text-xs text-slate-600 tabular-nums">{count}</span>
    </>
  );
}
