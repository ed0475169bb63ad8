// The scanner's findings on a tool's row beside the schema lint, so the tool page and its lint count show them:
// high → error, medium → warning; low ones stay on the version's review (a documentation link is not a defect).
import type { LintFinding } from "../registry/lint-tool";
import type { ScanFinding } from "./scan-types";

export type PoisoningLintFinding = Omit<LintFinding, "rule" | "severity"> & { rule: `poisoning/${ScanFinding["rule"]}`; severity: LintFinding["severity"] };

export function asLintFindings(findings: readonly ScanFinding[]): PoisoningLintFinding[] {
  return findings
    .filter((f) => f.severity !== "low")
    .map((f) => ({
      rule: `poisoning/${f.rule}` as const,
      severity: f.severity === "high" ? "error" : "warning",
      // The lint's paths are inside the tool: `tool:add.inputSchema.properties.x.description` → `inputSchema.properties.x.description`.
      path: f.where.replace(/^tool:[^.]*(?:\.|$)/, ""),
      message: `${f.message} ${f.span}`,
    }));
}
