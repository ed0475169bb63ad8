// British spellings read as American ones ("colour" is "color", "organisation" "organization", "catalogue"
// "catalog"), so that a request and a tool written on either side of the Atlantic meet at one index term; Porter's
// stemmer keeps them apart ("organis" against "organ"). A rewrite is taken only when WordNet lists the two as the
// same word (one a synonym of the other), so "tour" never becomes "tor", nor "acre" "acer".
import { baseForms, wordnetSynonyms } from "./wordnet";

// British ending → American ending. Each applies at most once; the first that WordNet confirms wins.
const VARIANTS: readonly [RegExp, string][] = [
  [/our(s|ed|ing|ite|ites|able|er|ers)?$/, "or$1"],
  [/is(e|es|ed|ing|er|ers|ation|ations)$/, "iz$1"],
  [/ys(e|es|ed|ing|er|ers)$/, "yz$1"],
  [/([bgtv])re(s|d)?$/, "$1er$2"],
  [/ence(s)?$/, "ense$1"],
  [/ogue(s)?$/, "og$1"],
  [/mme(s)?$/, "m$1"],
  [/que(s)?$/, "ck$1"],
  [/lment(s)?$/, "llment$1"],
];
const MIN_LETTERS = 5;
// Words looked at, with their spelling. Queries are free text, so the cache is bounded as WordNet's is: past this
// many words it starts over.
const MAX_CACHED_WORDS = 20_000;
const known = new Map<string, string>();

/** The American spelling of a lower-case word when it has one WordNet confirms; else the word. */
export function americanSpelling(word: string): string {
  if (word.length < MIN_LETTERS) return word;
  const cached = known.get(word);
  if (cached !== undefined) return cached;
  // Only a word that could be a British spelling is looked up (and kept): the rest are most words.
  const candidates = VARIANTS.filter(([british]) => british.test(word)).map(([british, american]) => word.replace(british, american));
  if (candidates.length === 0) return word;
  const spelled = candidates.find((candidate) => candidate !== word && sameWord(word, candidate)) ?? word;
  if (known.size >= MAX_CACHED_WORDS) known.clear();
  known.set(word, spelled);
  return spelled;
}

// WordNet lists base forms: "organised" has "organize" among its synonyms, so "organized" is confirmed through its
// base "organize" (WordNet's own base forms, as its lookups find them).
function sameWord(word: string, candidate: string): boolean {
  const synonyms = new Set(wordnetSynonyms(word));
  return baseForms(candidate).some((form) => synonyms.has(form));
}

/** How many words the cache holds (tests). */
export function spellingCacheSize(): number {
  return known.size;
}
