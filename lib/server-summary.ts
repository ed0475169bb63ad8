// A server's one-line summary, written by an admin for agents browsing the catalog (code mode's browse_catalog).
// It reaches a model's context verbatim, so it is one short line of printable text: no line breaks or other
// control characters (a summary cannot smuggle a second "line" into the listing), no NUL or lone surrogate
// (PostgreSQL cannot store them). Each refusal has a stable code the REST error's details carry per field.
import { z } from "zod";

export const MAX_SERVER_SUMMARY_CHARS = 200;

export type SummaryProblem = { code: "summary_too_long" | "summary_control_character" | "summary_invalid_unicode"; message: string };

/** What can be wrong with one line of admin text a model reads verbatim (a summary, an example request). */
export type LineProblem = { kind: "too_long" | "control_character" | "invalid_unicode"; message: string };

const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;
// C0 and C1 controls, DEL, the line and paragraph separators and the bidi overrides/isolates (they reorder text).
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/;

/** Why `line` (already trimmed) is not one line of printable text of at most `maxChars` characters, or null. */
export function lineProblem(line: string, maxChars: number): LineProblem | null {
  if (LONE_SURROGATE.test(line)) return { kind: "invalid_unicode", message: "contains invalid Unicode (a lone surrogate)" };
  const control = CONTROL.exec(line);
  if (control) {
    const c = control[0].codePointAt(0)!;
    return { kind: "control_character", message: `is one line of text: remove ${c === 0 ? "the NUL character" : `control character U+${c.toString(16).toUpperCase().padStart(4, "0")}`}` };
  }
  if ([...line].length > maxChars) return { kind: "too_long", message: `is at most ${String(maxChars)} characters` };
  return null;
}

/** Why `summary` (already trimmed) cannot be a server's summary, or null. */
export function summaryProblem(summary: string): SummaryProblem | null {
  const problem = lineProblem(summary, MAX_SERVER_SUMMARY_CHARS);
  return problem && { code: `summary_${problem.kind}`, message: problem.message };
}

/** The summary as the REST API takes it, trimmed; "" (like null) clears it, and the derived line applies. */
export const ZServerSummary = z
  .string()
  .trim()
  .superRefine((s, ctx) => {
    const problem = summaryProblem(s);
    if (problem) ctx.addIssue({ code: "custom", message: `summary ${problem.message}`, params: { code: problem.code } });
  })
  .meta({ description: `One line for agents browsing the catalog (at most ${String(MAX_SERVER_SUMMARY_CHARS)} characters); empty = derived from the server's instructions, else its tool names` });

/** What is stored: the trimmed summary, or null for none. */
export const storedSummary = (summary: string | null | undefined): string | null | undefined => (summary === undefined ? undefined : summary?.trim() || null);
