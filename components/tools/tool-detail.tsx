"use client";
import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { isApiError } from "@/components/api-client";
import { CopyButton } from "@/components/copy-button";
import { EmptyState } from "@/components/empty-state";
import { ServerIcon } from "@/components/icons";
import { Loading, LoadFailed } from "@/components/load-state";
import { PageHeader } from "@/components/page-header";
import { Breadcrumbs } from "@/components/servers/breadcrumbs";
import { getServer, parseGatewayName, serverHref, serverKey } from "@/components/servers/queries";
import { UnsandboxedBadge } from "@/components/servers/isolation-badge";
import { StatusBadge } from "@/components/servers/status-badge";
import { buttonPrimary, card } from "@/components/ui";
import type { TServer, TToolSummary } from "@/lib/schemas";
import { Annotations } from "./annotations";
import { LintFindings } from "./lint-findings";
import { RulesInForce } from "./rules-in-force";
import { SchemaViewer } from "./schema-viewer";
import { Tag, TierBadge } from "./tier-badge";
import { ToolSettings } from "./tool-settings";
import { TryCall } from "./try-call";
import { serverState } from "@/lib/server-state";

const crumbsFor = (slug: string, serverName: string, tool: string) => [
  { href: "/servers", label: "Servers & Tools" },
  { href: serverHref(slug), label: serverName },
  { label: tool },
];

// A tool page reads its server rather than GET /api/v1/tools/{name}: it shows the server's state and defaults
// beside the tool, and the server page shares the cached answer.
export function ToolDetail({ name }: { name: string }) {
  const parsed = parseGatewayName(name);
  const slug = parsed?.slug ?? "";
  const query = useQuery({
    queryKey: serverKey(slug),
    queryFn: ({ signal }) => getServer(slug, signal),
    enabled: parsed !== null,
  });
  const tool = query.data?.tools.find((t) => t.name === name);

  if (
    !parsed ||
    (query.isError && isApiError(query.error) && query.error.status === 404) ||
    (query.isSuccess && !tool)
  ) {
    return (
      <>
        <Breadcrumbs
          items={[{ href: "/servers", label: "Servers & Tools" }, { href: "/tools", label: "Tools" }, { label: name }]}
        />
        <EmptyState icon={<ServerIcon className="h-6 w-6" />} title={`There is no tool “${name}”`}>
          <p>
            Tools are named <code className="font-mono">server__tool</code>. The tool or its server may have been
            removed.
          </p>
          <p className="pt-2">
            <Link href="/tools" className={buttonPrimary}>
              See all tools
            </Link>
          </p>
        </EmptyState>
      </>
    );
  }
  if (query.isPending) {
    return (
      <>
        <Breadcrumbs items={crumbsFor(slug, slug, parsed.tool)} />
        <Loading what="the tool" />
      </>
    );
  }
  if (query.isError || !tool) {
    return <LoadFailed what="the tool" error={query.error} retry={query.refetch} />;
  }
  return <ToolPage tool={tool} server={query.data.server} />;
}

function ToolPage({ tool, server }: { tool: TToolSummary; server: TServer }) {
  const hasOutput = tool.outputSchema !== null && Object.keys(tool.outputSchema).length > 0;
  return (
    <>
      <Breadcrumbs items={crumbsFor(server.slug, server.name, tool.tool)} />
      <PageHeader
        title={tool.title ?? tool.tool}
        description={
          <span className="flex flex-wrap items-center gap-2">
            <code className="font-mono text-slate-800" data-testid="gateway-name">
              {tool.name}
            </code>
            <TierBadge tier={tool.riskTier} />
            {!tool.enabled && <Tag>Disabled</Tag>}
            {tool.strict && <Tag tone="indigo">Strict</Tag>}
            {tool.async && <Tag tone="indigo">Async</Tag>}
            {tool.removed && <Tag tone="red">No longer offered</Tag>}
            <UnsandboxedBadge isolation={server.isolation} />
          </span>
        }
        actions={<CopyButton text={tool.name} label="Copy name" what="Tool name" />}
      />
      {(!server.enabled || serverState(server).tone === "down") && (
        <div
          role="status"
          className="mb-4 flex flex-wrap items-center gap-2 rounded-lg border border-amber-200 bg-amber-50 px-4 py-3 text-sm text-amber-900"
        >
          <StatusBadge status={server.status} lastError={server.lastError} />
          <span>
            Its server{" "}
            <Link href={serverHref(server.slug)} className="font-medium underline">
              {server.name}
            </Link>{" "}
            {server.enabled
              ? "is down, so calls fail until it reconnects."
              : "is disabled, so agents cannot see this tool."}
          </span>
        </div>
      )}
      <div className="grid grid-cols-1 gap-6 lg:grid-cols-3">
        <div className="min-w-0 space-y-6 lg:col-span-2">
          <section aria-labelledby="about-heading" className={`${card} p-5`}>
            <h2 id="about-heading" className="text-base font-semibold text-slate-900">
              Description
            </h2>
            <p className="mt-2 text-sm whitespace-pre-line text-slate-700" data-testid="tool-description">
              {tool.description ?? (
                <span className="text-slate-400 italic">
                  The server gives no description; a model has only the name to go on.
                </span>
              )}
            </p>
            <h3 className="mt-5 mb-2 text-sm font-semibold text-slate-900">Annotations</h3>
            <Annotations annotations={tool.annotations} />
          </section>
          <SchemaViewer
            id="input-schema"
            title="Input schema"
            schema={tool.inputSchema}
            empty="The tool takes no arguments."
          />
          <LintFindings findings={tool.lintFindings} />
          <TryCall tool={tool} />
          {hasOutput && tool.outputSchema && (
            <SchemaViewer
              id="output-schema"
              title="Output schema"
              schema={tool.outputSchema}
              empty="The output schema declares no properties."
            />
          )}
        </div>
        <div className="min-w-0 space-y-6 lg:sticky lg:top-24 lg:self-start">
          <ToolSettings tool={tool} server={server} />
          <RulesInForce name={tool.name} server={server.slug} />
        </div>
      </div>
    </>
  );
}
