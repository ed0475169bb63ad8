// A description far longer than the server's others: room for a payload the console's one-line summary hides.
import { safeSpan } from "../../../lib/show-invisible";
import type { ScanFinding } from "../scan-types";

/** Longer than this many times the server's median and this many characters absolute: a few long tools in a
 *  server of terse ones are normal (a query tool documents its syntax); an order of magnitude is not. */
export const LONG_FACTOR = 5;
export const LONG_MIN_CHARS = 1200;

export function longDescriptions(entries: { where: string; text: string }[]): ScanFinding[] {
  // A single-tool server has no others to compare with.
  if (entries.length < 2) return [];
  const lengths = entries.map((e) => e.text.length).sort((a, b) => a - b);
  const median = lengths[Math.floor((lengths.length - 1) / 2)]!;
  const limit = Math.max(LONG_MIN_CHARS, median * LONG_FACTOR);
  return entries
    .filter((e) => e.text.length > limit)
    .map((e) => ({
      rule: "long-description" as const,
      // Low: real servers document options at length (firecrawl's scrape runs to 5,000 characters against a
      // median of 660); the length points a reviewer at the text, the other rules judge what it says.
      severity: "low" as const,
      where: e.where,
      span: `${safeSpan(e.text, Math.max(0, e.text.length - 120))} (${e.text.length} characters; the server's median is ${median})`,
      message: "The description is far longer than the server's others; read its end.",
    }));
}
