// Whether an answer's best match is weak: the model is then pointed at the catalog instead of trusting it.
import type { QueryWord } from "./expand-query";
import { postingHas, type FieldIndex } from "./field-index";
import { actionsOf } from "./thesaurus";

// A match is weak when less than this share of the query's known words reach the best tool.
const WEAK_EVIDENCE = 0.35;
// Below this a word is reached only by a WordNet sense: too loose to count for or against a match.
const KNOWN_MATCH = 0.5;

/** Whether the best tool answers too little of the query: most known words miss it, or only verbs reach it. */
export function isWeak(index: FieldIndex, query: readonly QueryWord[], doc: number): boolean {
  let known = 0;
  let evidence = 0;
  let object = false;
  for (const word of query) {
    if (word.implied) continue;
    let reached = 0;
    for (const [term, weight] of word.expansions) {
      if (!postingHas(index.postings.get(term)!, doc)) continue;
      reached = Math.max(reached, weight);
      if (weight >= KNOWN_MATCH && (!word.action || actionsOf(term).size === 0)) object = true;
    }
    if (reached === 0 && Math.max(0, ...word.expansions.values()) < KNOWN_MATCH) continue;
    known++;
    evidence += reached;
  }
  return known > 0 && (!object || evidence / known < WEAK_EVIDENCE);
}
