// A simulated decision: the outcome, the step that decided it and why, and the arguments as they would
// reach the server (after row caps).
import type { TDecision } from "@/lib/policy-schemas";

const DECISION: Record<TDecision["decision"], { label: string; style: string }> = {
  allow: { label: "Allowed", style: "bg-emerald-50 text-emerald-700 ring-emerald-600/20" },
  deny: { label: "Denied", style: "bg-red-50 text-red-700 ring-red-600/20" },
  require_approval: { label: "Needs approval", style: "bg-amber-50 text-amber-800 ring-amber-600/20" },
};

const STEP_LABEL: Record<TDecision["step"], string> = {
  whitelist: "Whitelist",
  tier: "Risk tier",
  rule: "Parameter rule",
  schema: "Input schema",
  allow: "All checks passed",
};

export function DecisionBadge({ decision }: { decision: TDecision["decision"] }) {
  const d = DECISION[decision];
  return (
    <span
      className={`inline-flex rounded-md px-2.5 py-1 text-sm font-semibold whitespace-nowrap ring-1 ring-inset ${d.style}`}
      data-testid="decision-badge"
      data-decision={decision}
    >
      {d.label}
    </span>
  );
}

export function DecisionView({ decision, tool }: { decision: TDecision; tool: string }) {
  return (
    <div className="mt-3 space-y-4" data-testid="decision" data-decision={decision.decision}>
      <div className="flex flex-wrap items-center gap-2">
        <DecisionBadge decision={decision.decision} />
        <code className="font-mono text-sm break-all text-slate-700">{tool}</code>
      </div>
      <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-2 text-sm">
        <dt className="text-slate-500">Step</dt>
        <dd className="min-w-0 text-slate-900" data-testid="decision-step">
          {STEP_LABEL[decision.step] ?? decision.step}
        </dd>
        <dt className="text-slate-500">Code</dt>
        <dd className="min-w-0 font-mono break-all text-slate-900" data-testid="decision-code">
          {decision.code ?? "—"}
        </dd>
        <dt className="text-slate-500">Reason</dt>
        <dd className="min-w-0 break-words text-slate-900" data-testid="decision-reason">
          {decision.reason}
        </dd>
        <dt className="text-slate-500">Rule</dt>
        <dd className="min-w-0 font-mono break-all text-slate-900" data-testid="decision-rule">
          {decision.ruleId ?? "—"}
        </dd>
      </dl>
      <div>
        <h3 className="text-sm font-medium text-slate-700">Arguments the server would receive</h3>
        <pre
          className="mt-1 max-h-72 overflow-auto rounded-md bg-slate-950 px-3 py-2 font-mono text-xs leading-relaxed text-slate-100"
          data-testid="decision-arguments"
        >
          {JSON.stringify(decision.arguments, null, 2)}
        </pre>
      </div>
    </div>
  );
}
