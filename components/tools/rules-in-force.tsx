"use client";
// "Rules in force": what the gateway applies to every call of this tool, in the order it applies them — who may
// call it, its risk tier, the parameter rules, argument checking, then the rate limit — as the server reports them.
import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { apiFetch } from "@/components/api-client";
import { LoadFailed, Loading } from "@/components/load-state";
import { describeHolder, describeRuleConfig, RULE_KIND_LABEL } from "@/components/policies/describe";
import { serverKey } from "@/components/servers/queries";
import { card } from "@/components/ui";
import type { TToolPolicy } from "@/lib/tool-policy-schemas";
import { TIER_LABEL } from "./tier-badge";

const policyKey = (server: string, tool: string) => [...serverKey(server), "policy", tool] as const;
const getToolPolicy = (name: string, signal?: AbortSignal) => apiFetch<TToolPolicy>(`/api/v1/tools/${encodeURIComponent(name)}/policy`, { signal });

const LIMIT_SOURCE: Record<TToolPolicy["rateLimit"]["source"], string> = {
  tool: "this tool's own limit",
  server: "its server's default",
  gateway: "the gateway's default",
};

export function RulesInForce({ name, server }: { name: string; server: string }) {
  // Under the server's key: a settings change (which invalidates the server) refreshes it too.
  const query = useQuery({ queryKey: policyKey(server, name), queryFn: ({ signal }) => getToolPolicy(name, signal) });
  return (
    <section aria-labelledby="rules-heading" className={`${card} p-5`} data-testid="rules-in-force">
      <h2 id="rules-heading" className="text-base font-semibold text-slate-900">
        Rules in force
      </h2>
      <p className="mt-1 text-sm text-slate-600">
        What the gateway checks on every call of this tool, in this order. Change them under{" "}
        <Link href="/policies" className="font-medium text-indigo-700 underline">
          Policies
        </Link>{" "}
        and in the settings beside.
      </p>
      {query.data ? <RuleList p={query.data} /> : query.isError ? <LoadFailed what="the rules" error={query.error} retry={query.refetch} inCard /> : <Loading what="the rules" />}
    </section>
  );
}

function Step({ title, id, children }: { title: string; id: string; children: React.ReactNode }) {
  return (
    <li className="min-w-0" data-testid={`rule-step-${id}`}>
      <h3 className="text-sm font-semibold text-slate-900">{title}</h3>
      <div className="mt-1 text-sm text-slate-700">{children}</div>
    </li>
  );
}

function RuleList({ p }: { p: TToolPolicy }) {
  return (
    <ol className="mt-4 space-y-4">
      {!p.enabled && (
        <Step title="Disabled" id="disabled">
          An administrator disabled the tool: every call is refused before anything else is checked.
        </Step>
      )}
      <Step title="Who may call it" id="callers">
        {p.callers.length ? (
          <>
            <ul className="list-disc pl-5">
              {p.callers.map((c, i) => (
                <li key={i}>
                  {describeHolder(c)} <span className="text-slate-500">(grant <code className="font-mono">{c.pattern}</code>)</span>
                </li>
              ))}
            </ul>
            <p className="mt-1 text-xs text-slate-500">An agent session calls it only if its own tool list includes it too.</p>
          </>
        ) : (
          <p>Nobody holds a grant that covers it, so no agent can call it.</p>
        )}
      </Step>
      <Step title="Risk tier" id="tier">
        {TIER_LABEL[p.riskTier]}:{" "}
        {p.riskTier === "HIGH"
          ? `each call waits until ${p.requiredApprovals === 1 ? "an approver says" : `${p.requiredApprovals} approvers say`} yes.`
          : "calls run without waiting for a person."}
      </Step>
      <Step title="Parameter rules" id="rules">
        {p.rules.length ? (
          <ul className="list-disc pl-5">
            {p.rules.map((r) => (
              <li key={r.id} data-testid="rule-in-force" data-kind={r.kind}>
                {RULE_KIND_LABEL[r.kind]} on <code className="font-mono">{r.argument}</code>: {describeRuleConfig(r)}
              </li>
            ))}
          </ul>
        ) : (
          <p>None: any value the input schema allows passes.</p>
        )}
      </Step>
      <Step title="Arguments" id="arguments">
        Checked against the input schema{p.strict ? "; arguments it does not declare are refused (strict)." : "."}
      </Step>
      <Step title="Rate limit" id="rate-limit">
        {p.rateLimit.perMinute} calls a minute ({LIMIT_SOURCE[p.rateLimit.source]}), and {p.rateLimit.perSessionPerMinute} a minute for each agent
        session across all tools.
      </Step>
      <Step title="Running" id="running">
        Times out after {p.timeoutMs / 1000} s{p.async ? "; every call runs as a task, answered with a task id at once." : "."}
      </Step>
    </ol>
  );
}
