import type { TToolSummary } from "@/lib/schemas";

type Tier = TToolSummary["riskTier"];

const STYLE: Record<Tier, string> = {
  LOW: "bg-emerald-50 text-emerald-700 ring-emerald-600/20",
  MEDIUM: "bg-amber-50 text-amber-800 ring-amber-600/20",
  HIGH: "bg-red-50 text-red-700 ring-red-600/20",
};

export const TIERS: readonly Tier[] = ["LOW", "MEDIUM", "HIGH"];
export const TIER_LABEL: Record<Tier, string> = { LOW: "Low risk", MEDIUM: "Medium risk", HIGH: "High risk" };

export function TierBadge({ tier }: { tier: Tier }) {
  return (
    <span
      className={`inline-flex rounded-md px-2 py-0.5 text-xs font-medium whitespace-nowrap ring-1 ring-inset ${STYLE[tier]}`}
      data-testid="tier-badge"
    >
      {TIER_LABEL[tier]}
    </span>
  );
}

/** Small neutral or coloured labels next to a tool: Disabled, Strict, Removed… */
export function Tag({
  children,
  tone = "slate",
}: {
  children: React.ReactNode;
  tone?: "slate" | "red" | "amber" | "indigo" | "emerald";
}) {
  const tones = {
    slate: "bg-slate-100 text-slate-700 ring-slate-500/20",
    red: "bg-red-50 text-red-700 ring-red-600/20",
    amber: "bg-amber-50 text-amber-800 ring-amber-600/20",
    indigo: "bg-indigo-50 text-indigo-700 ring-indigo-600/20",
    emerald: "bg-emerald-50 text-emerald-700 ring-emerald-600/20",
  };
  return (
    <span
      className={`inline-flex rounded-md px-2 py-0.5 text-xs font-medium whitespace-nowrap ring-1 ring-inset ${tones[tone]}`}
    >
      {children}
    </span>
  );
}

/** "3 warnings", "1 error, 2 warnings" or "Clean" for a tool's lint findings. */
export function LintCount({ findings }: { findings: TToolSummary["lintFindings"] }) {
  const errors = findings.filter((f) => f.severity === "error").length;
  const warnings = findings.length - errors;
  if (findings.length === 0) return <span className="text-xs text-emerald-700">Clean</span>;
  return (
    <span
      className="inline-flex flex-wrap gap-1"
      title={`${findings.length} lint finding${findings.length === 1 ? "" : "s"}`}
    >
      {errors > 0 && <Tag tone="red">{`${errors} error${errors === 1 ? "" : "s"}`}</Tag>}
      {warnings > 0 && <Tag tone="amber">{`${warnings} warning${warnings === 1 ? "" : "s"}`}</Tag>}
    </span>
  );
}
