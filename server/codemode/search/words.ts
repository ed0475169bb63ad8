// Words of free text and identifiers alike, lower-case: `delete_order`, `deleteOrder`, `do.thing`, "GitHub's
// PRs", "Lösche Bestellung". Identifiers are split into their words, product names are kept whole, and what
// cannot carry meaning (single letters, bare numbers such as the 5 of "issue 5") is dropped.
import { splitIdentifier } from "../../registry/split-identifier";
import { joinProductNames } from "./product-names";

// A possessive goes ("GitHub's" is GitHub); other apostrophes join ("don't"), so "what's" is the stop word
// "what" and never a prefix of anything.
const POSSESSIVE = /['’]s\b/gi;
const APOSTROPHE = /['’]/g;
const SEPARATOR = /[\s\p{P}\p{S}]+/u;

// "PRs", "listPRs": an upper-case abbreviation's plural stays one word (camel-case splitting would make "p rs").
const ABBREVIATION_PLURAL = /([A-Z]{2,})s(?=[A-Z\d_.-]|\b)/g;
// "P&L", "Q&A", "R&D": letters joined by "&" are one abbreviation, written as it is spoken ("pnl", "qna").
const AMPERSAND = /\b([A-Za-z]{1,2})&([A-Za-z]{1,2})\b/g;
// "re-open", "un-archive", "de-register": a prefix that changes what its stem means, joined by a hyphen, is one word
// with it ("reopen"), not a stray "re" and a verb of its own ("open" is to create). Prefixes that keep the stem's
// meaning ("e-signature", "sub-task") stay apart, so the stem still meets the tools that write it alone.
const HYPHENATED_PREFIX = /\b(re|un|de|dis|non|mis)-(?=[a-z]{3,}\b)/gi;

export function words(text: string): string[] {
  const out: string[] = [];
  // Compatibility forms are their letters: full-width "Ｓｌａｃｋ" (as CJK input methods type it) is "Slack",
  // the ligature in "ﬁle" is "fi".
  const cleaned = text
    .normalize("NFKC")
    .replace(HYPHENATED_PREFIX, "$1")
    .replace(AMPERSAND, (_, a: string, b: string) => `${a}n${b}`.toLowerCase())
    .replace(POSSESSIVE, "")
    .replace(APOSTROPHE, "")
    .replace(ABBREVIATION_PLURAL, "$1S");
  for (const token of cleaned.split(SEPARATOR)) {
    if (token.length === 0) continue;
    if (/^[A-Za-z0-9]+$/.test(token)) out.push(...splitIdentifier(token));
    else out.push(token.toLowerCase());
  }
  // Joined across separators too: `whats_app`, "Git Hub".
  return joinProductNames(out).filter((word) => word.length > 1 && !/^\d+$/.test(word));
}
