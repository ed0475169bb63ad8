// Shared by the pattern rules: every match of a set of patterns in a text as a finding with a safe span.
import { safeSpan } from "../../../lib/show-invisible";
import type { ScanFinding, ScanRuleId, ScanSeverity, ScanText } from "../scan-types";

export type Pattern = { re: RegExp; severity: ScanSeverity; message: string };

/** Characters of context shown either side of a match, so an admin sees where it sits. */
const CONTEXT = 24;
/** A hostile description may be megabytes long; past this the patterns stop looking (the length rule reports it). */
export const MAX_SCAN_CHARS = 20_000;

export function matchAll(rule: ScanRuleId, patterns: readonly Pattern[], { where, text }: ScanText): ScanFinding[] {
  const body = text.slice(0, MAX_SCAN_CHARS);
  const out: ScanFinding[] = [];
  for (const p of patterns) {
    const re = new RegExp(p.re.source, p.re.flags.includes("g") ? p.re.flags : `${p.re.flags}g`);
    for (const m of body.matchAll(re)) {
      const start = Math.max(0, m.index - CONTEXT);
      const end = Math.min(body.length, m.index + m[0].length + CONTEXT);
      out.push({ rule, severity: p.severity, where, span: safeSpan(body, start, end), message: p.message });
      break; // one finding per pattern and field: the admin needs to see it, not count it
    }
  }
  return out;
}
