"use client";
// The server page's "Resources & prompts" tab: what the serving version offers besides tools, and the two MCP
// endpoints an agent uses to reach it (all servers with prefixed names, or this server alone as it is).
import { useQuery } from "@tanstack/react-query";
import { Loading, LoadFailed } from "@/components/load-state";
import { card } from "@/components/ui";
import type { TServer, TServerOfferings } from "@/lib/schemas";
import { getOfferings, offeringsKey } from "./queries";

export function ServerOfferings({ server }: { server: TServer }) {
  const query = useQuery({ queryKey: offeringsKey(server.slug), queryFn: ({ signal }) => getOfferings(server.slug, signal) });
  if (query.isPending) return <Loading what="resources and prompts" />;
  if (query.isError) return <LoadFailed what="resources and prompts" error={query.error} retry={query.refetch} />;
  return <Offerings server={server} data={query.data} />;
}

function InlineCode({ children }: { children: string }) {
  return <code className="rounded bg-slate-100 px-1 font-mono text-[0.85em] text-slate-800">{children}</code>;
}

function Offerings({ server, data }: { server: TServer; data: TServerOfferings }) {
  const origin = typeof window === "undefined" ? "" : window.location.origin;
  return (
    <div className="space-y-6">
      <section className={`${card} p-4`} aria-labelledby="endpoints-heading">
        <h2 id="endpoints-heading" className="text-sm font-semibold text-slate-900">
          Where agents reach it
        </h2>
        <dl className="mt-3 grid gap-3 text-sm sm:grid-cols-[12rem_1fr]">
          <dt className="text-slate-600">This server alone</dt>
          <dd className="min-w-0 break-all">
            <InlineCode>{`${origin}${data.endpoints.transparent}`}</InlineCode>
            <p className="mt-1 text-slate-500">Its own names; sampling, elicitation and roots relayed to the agent.</p>
          </dd>
          <dt className="text-slate-600">With every server</dt>
          <dd className="min-w-0 break-all">
            <InlineCode>{`${origin}${data.endpoints.aggregate}`}</InlineCode>
            <p className="mt-1 text-slate-500">
              Tools and prompts as <InlineCode>{`${server.slug}__<name>`}</InlineCode>, resources by their URIs.
            </p>
          </dd>
        </dl>
      </section>

      <OfferingList
        title="Resources"
        empty="This version offers no resources."
        items={data.resources.map((r) => ({ key: r.uri, primary: r.name, secondary: r.uri, note: r.description }))}
      />
      <OfferingList
        title="Resource templates"
        empty="This version offers no resource templates."
        items={data.resourceTemplates.map((t) => ({ key: t.uriTemplate, primary: t.name, secondary: t.uriTemplate, note: t.description }))}
      />
      <OfferingList
        title="Prompts"
        empty="This version offers no prompts."
        items={data.prompts.map((p) => ({
          key: p.name,
          primary: p.name,
          secondary: p.arguments.length ? `arguments: ${p.arguments.map((a) => `${a.name}${a.required ? "" : "?"}`).join(", ")}` : "no arguments",
          note: p.description,
        }))}
      />
    </div>
  );
}

type Item = { key: string; primary: string; secondary: string; note?: string | undefined };

function OfferingList({ title, empty, items }: { title: string; empty: string; items: Item[] }) {
  const id = `offerings-${title.toLowerCase().replace(/\s+/g, "-")}`;
  return (
    <section className={card} aria-labelledby={id}>
      <h2 id={id} className="border-b border-slate-200 px-4 py-3 text-sm font-semibold text-slate-900">
        {title} <span className="font-normal text-slate-500 tabular-nums">({items.length})</span>
      </h2>
      {items.length === 0 ? (
        <p className="px-4 py-6 text-sm text-slate-500">{empty}</p>
      ) : (
        <ul className="divide-y divide-slate-100">
          {items.map((i) => (
            <li key={i.key} className="px-4 py-3 text-sm">
              <p className="font-medium text-slate-900">{i.primary}</p>
              <p className="break-all font-mono text-xs text-slate-600">{i.secondary}</p>
              {i.note && <p className="mt-1 text-slate-600">{i.note}</p>}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
