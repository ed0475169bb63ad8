import { WithCode } from "@/components/servers/inline-code";
import { card } from "@/components/ui";
import type { TToolSummary } from "@/lib/schemas";

/** `properties.filter.properties.status` → `filter.status`; the root is "(input)". */
export function readablePath(path: string): string {
  if (path === "") return "(input)";
  if (path === "description") return "description";
  return path
    .replace(/^properties\./, "")
    .replace(/\.properties\./g, ".")
    .replace(/\.items(?=\.|$)/g, "[]");
}

export function LintFindings({ findings }: { findings: TToolSummary["lintFindings"] }) {
  const sorted = [...findings].sort((a, b) => Number(b.severity === "error") - Number(a.severity === "error"));
  return (
    <section aria-labelledby="lint-heading" className={`${card} min-w-0 overflow-hidden`}>
      <div className="flex items-center justify-between border-b border-slate-200 px-4 py-3">
        <h2 id="lint-heading" className="text-base font-semibold text-slate-900">
          Lint findings <span className="font-normal text-slate-500">({findings.length})</span>
        </h2>
      </div>
      {findings.length === 0 ? (
        <p className="px-4 py-4 text-sm text-emerald-700">
          Nothing to report: the schema describes and bounds every input.
        </p>
      ) : (
        <ul className="divide-y divide-slate-100" aria-label="Lint findings">
          {sorted.map((f, i) => (
            <li
              key={`${f.rule}-${f.path}-${i}`}
              className="px-4 py-3"
              data-testid="lint-finding"
              data-severity={f.severity}
            >
              <div className="flex flex-wrap items-center gap-2">
                <span
                  className={`rounded-md px-1.5 py-0.5 text-xs font-medium ring-1 ring-inset ${
                    f.severity === "error"
                      ? "bg-red-50 text-red-700 ring-red-600/20"
                      : "bg-amber-50 text-amber-800 ring-amber-600/20"
                  }`}
                >
                  {f.severity === "error" ? "Error" : "Warning"}
                </span>
                <code className="font-mono text-xs break-all text-slate-900" title={f.path || "(input schema root)"}>
                  {readablePath(f.path)}
                </code>
                <span className="ml-auto text-xs text-slate-400">{f.rule}</span>
              </div>
              <p className="mt-1 text-sm text-slate-700">
                <WithCode text={f.message} />
              </p>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
