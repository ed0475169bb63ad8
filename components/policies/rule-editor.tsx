"use client";
// One tool's parameter rules, in a dialog over the tools table: the rules in force (each can be deleted)
// and the form that adds one.
import { useQuery } from "@tanstack/react-query";
import { Dialog } from "@/components/dialog";
import { formatDateTime } from "@/components/format";
import { Loading, LoadFailed } from "@/components/load-state";
import { Tag } from "@/components/tools/tier-badge";
import { buttonDangerQuiet, buttonSecondary } from "@/components/ui";
import type { TRule } from "@/lib/policy-schemas";
import { AddRuleForm } from "./add-rule-form";
import { describeRuleConfig, RULE_KIND_LABEL } from "./describe";
import { useDeleteRule } from "./policy-mutations";
import { listRules, rulesKey } from "./queries";

export function RuleEditor({ tool, onClose }: { tool: string | null; onClose: () => void }) {
  return (
    <Dialog
      open={tool !== null}
      onClose={onClose}
      title={tool ? `Rules for ${tool}` : "Rules"}
      description="Every rule must pass before a call reaches the server; a row cap lowers the limit instead of refusing."
      footer={
        <button type="button" className={buttonSecondary} onClick={onClose}>
          Close
        </button>
      }
    >
      {tool && <RuleEditorBody key={tool} tool={tool} />}
    </Dialog>
  );
}

function RuleEditorBody({ tool }: { tool: string }) {
  const query = useQuery({ queryKey: rulesKey(tool), queryFn: ({ signal }) => listRules(tool, signal) });
  return (
    <div className="space-y-6">
      <section aria-labelledby="rules-heading">
        <h3 id="rules-heading" className="text-sm font-semibold text-slate-900">
          Rules in force{query.data ? ` (${query.data.items.length})` : ""}
        </h3>
        {query.isPending ? (
          <Loading what="rules" />
        ) : query.isError ? (
          <LoadFailed what="the rules" error={query.error} retry={query.refetch} inCard />
        ) : query.data.items.length === 0 ? (
          <p className="mt-2 text-sm text-slate-500">
            No rules yet: any arguments the tool&apos;s schema accepts pass.
          </p>
        ) : (
          <ul
            className="mt-2 divide-y divide-slate-100 rounded-md border border-slate-200"
            aria-label={`Rules for ${tool}`}
          >
            {query.data.items.map((rule) => (
              <RuleItem key={rule.id} tool={tool} rule={rule} />
            ))}
          </ul>
        )}
      </section>
      <section aria-labelledby="add-rule-heading" className="border-t border-slate-200 pt-4">
        <h3 id="add-rule-heading" className="mb-3 text-sm font-semibold text-slate-900">
          Add a rule
        </h3>
        <AddRuleForm tool={tool} />
      </section>
    </div>
  );
}

function RuleItem({ tool, rule }: { tool: string; rule: TRule }) {
  const mutation = useDeleteRule(tool);
  return (
    <li
      className="flex flex-wrap items-start justify-between gap-3 px-3 py-2.5"
      data-testid="rule"
      data-kind={rule.kind}
      data-id={rule.id}
    >
      <div className="min-w-0">
        <div className="flex flex-wrap items-center gap-2">
          <Tag tone="indigo">{RULE_KIND_LABEL[rule.kind]}</Tag>
          <code className="font-mono text-sm break-all text-slate-900">{rule.argument}</code>
          {!rule.enabled && <Tag>Disabled</Tag>}
        </div>
        <p className="mt-1 text-xs break-all text-slate-600">{describeRuleConfig(rule)}</p>
        <p className="text-xs text-slate-400">Added {formatDateTime(rule.createdAt)}</p>
      </div>
      <button
        type="button"
        className={`${buttonDangerQuiet} py-1.5`}
        disabled={mutation.isPending}
        onClick={() => mutation.mutate(rule)}
        aria-label={`Delete rule: ${RULE_KIND_LABEL[rule.kind]} on ${rule.argument}`}
      >
        {mutation.isPending ? "Deleting…" : "Delete"}
      </button>
    </li>
  );
}
