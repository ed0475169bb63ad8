// Whether a word is written as a plural noun: "orders", "PRs", "replies", "boxes". The number of the object tells
// list from get ("show the open bugs" lists, "show bug 5" gets one), so a query's nouns are matched against the
// number of the tool's name words (`list_issues`, `get_issue`). A plural is a word whose stem is its singular's:
// "news", "status", "analytics" are not ("new", "statu", "analytic" differ or are excluded).
import { termOf } from "./normalize";

const NOT_PLURAL_ENDING = /(?:ss|us|is)$/;

export function isPlural(word: string): boolean {
  const lower = word.toLowerCase();
  if (!/^[a-z]{2,}s$/.test(lower) || NOT_PLURAL_ENDING.test(lower)) return false;
  const term = termOf(lower);
  if (term === null) return false;
  return singularsOf(lower).some((singular) => termOf(singular) === term);
}

function singularsOf(word: string): string[] {
  const out = [word.slice(0, -1)];
  if (word.endsWith("ies")) out.push(`${word.slice(0, -3)}y`);
  if (/(?:ses|xes|zes|ches|shes)$/.test(word)) out.push(word.slice(0, -2));
  return out;
}
