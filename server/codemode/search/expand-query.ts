// A query → its words, each with the index terms that answer it and how much each counts: the word itself (1),
// related words from the thesaurus, WordNet synonyms for words the thesaurus does not know, and — only for a
// word that nothing else matched and that is no English word, of four letters or more — its completions
// ("refu" → "refund") and near spellings ("ordr" → "order"). "what's" is a stop word and "check" a word, so
// neither reaches `whatsapp` or `check_grammar` by prefix.
import { termsWithPrefix, type FieldIndex } from "./field-index";
import { withinEdits } from "./edit-distance";
import { termOf } from "./normalize";
import { actionsOf, relatedTerms } from "./thesaurus";
import { isDictionaryWord, wordnetSynonyms } from "./wordnet";
import { words } from "./words";

export const MATCH_WEIGHT = { exact: 1, wordnet: 0.25, prefix: 0.5, fuzzy: 0.5 } as const;
const MAX_QUERY_WORDS = 32;
const MAX_COMPLETIONS = 12;
const MIN_GUESS_CHARS = 4;

export type QueryWord = {
  word: string;
  term: string;
  /** Is it an action (verb) word: "show", "delete", "send"? */
  action: boolean;
  /** Index terms answering this word, with weights; the term itself first when the index has it. */
  expansions: Map<string, number>;
};

export function expandQuery(query: string, index: FieldIndex): QueryWord[] {
  const seen = new Set<string>();
  const out: QueryWord[] = [];
  for (const word of words(query)) {
    const term = termOf(word);
    if (term === null || seen.has(term)) continue;
    seen.add(term);
    const expansions = expansionsOf(word, term, index);
    // Words related to an earlier one ("lat/long", "remove or delete") ask for one thing: counted once.
    const same = out.find((earlier) => earlier.expansions.has(term) || relatedTerms(earlier.term).has(term));
    if (same) {
      for (const [candidate, weight] of expansions) {
        if (weight > (same.expansions.get(candidate) ?? 0)) same.expansions.set(candidate, weight);
      }
      continue;
    }
    out.push({ word, term, action: actionsOf(term).size > 0, expansions });
    if (out.length >= MAX_QUERY_WORDS) break;
  }
  return out;
}

function expansionsOf(word: string, term: string, index: FieldIndex): Map<string, number> {
  const expansions = new Map<string, number>();
  const add = (candidate: string, weight: number) => {
    if (index.postings.has(candidate) && weight > (expansions.get(candidate) ?? 0)) expansions.set(candidate, weight);
  };
  add(term, MATCH_WEIGHT.exact);
  const related = relatedTerms(term);
  for (const [candidate, weight] of related) add(candidate, weight);
  if (related.size === 0 && /^[a-z]{3,}$/.test(word)) {
    for (const synonym of wordnetSynonyms(word)) {
      const synonymTerm = termOf(synonym);
      if (synonymTerm) add(synonymTerm, MATCH_WEIGHT.wordnet);
    }
  }
  // Completions and near spellings only for what is not a word: "crash" is not a typo of "trash".
  if (expansions.size === 0 && word.length >= MIN_GUESS_CHARS && /^[a-z]+$/.test(word) && !isDictionaryWord(word)) {
    const completions = termsWithPrefix(index, word, MAX_COMPLETIONS);
    for (const candidate of completions) add(candidate, MATCH_WEIGHT.prefix);
    if (completions.length === 0) {
      const edits = term.length >= 8 ? 2 : 1;
      for (const candidate of index.vocabulary)
        if (withinEdits(term, candidate, edits)) add(candidate, MATCH_WEIGHT.fuzzy);
    }
  }
  return expansions;
}
