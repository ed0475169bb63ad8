// Phrasal verbs in a query: "sign jane@example.com up", "shut the staging box down". The verb alone means
// something else ("sign" a contract), so when its particle follows within a couple of words the verb is read
// as the phrase's action. Likewise "how long", "how far": a measure, not the adjective's senses.
import { termOf } from "./normalize";
import { ADJACENT_PARTICLES, HOW_QUESTIONS, PHRASAL_VERBS } from "./thesaurus-data";
import { words } from "./words";

// Words allowed between the verb and its particle: "sign Jane up", "shut the box down", not a whole clause.
const MAX_GAP = 2;

export type Phrasal = { particle: string; terms: string[] };
let byVerb: Map<string, Phrasal[]> | undefined;

function table(): Map<string, Phrasal[]> {
  if (byVerb) return byVerb;
  byVerb = new Map();
  for (const line of PHRASAL_VERBS) {
    const [phrase, meant] = line.split(">");
    const [verb, particle] = phrase!.trim().split(/\s+/);
    const terms = [...new Set(words(meant!).flatMap((word) => termOf(word) ?? []))];
    byVerb.set(verb!, [...(byVerb.get(verb!) ?? []), { particle: particle!, terms }]);
  }
  return byVerb;
}

/**
 * The phrasal verb a written verb is in this query, or undefined when it is none: its particle, and the index terms
 * the phrase means.
 */
export function phrasalVerb(query: string, verb: string): Phrasal | undefined {
  for (const phrasal of table().get(verb) ?? []) {
    const { particle } = phrasal;
    const gap = ADJACENT_PARTICLES.has(particle) ? 0 : MAX_GAP;
    // "bring PR 30 up to date" is an update, not "bring up".
    const phrase = new RegExp(`\\b${verb}(?:\\s+[^\\s,;:!?]+){0,${gap}}?(?:\\s+|-)${particle}\\b(?!\\s+to\\s+date)`, "i");
    if (phrase.test(query)) return phrasal;
  }
  return undefined;
}

let howTable: Map<string, string[]> | undefined;

/** What "how <word>" asks for ("how long": duration, time), or undefined when the word does not follow "how". */
export function howMeaning(query: string, word: string): readonly string[] | undefined {
  howTable ??= new Map(
    HOW_QUESTIONS.flatMap((line) => {
      const [asked, meant] = line.split(">");
      const terms = [...new Set(words(meant!).flatMap((w) => termOf(w) ?? []))];
      return asked!
        .trim()
        .split(/\s+/)
        .map((adjective) => [adjective, terms] as [string, string[]]);
    }),
  );
  const terms = howTable.get(word);
  return terms && new RegExp(`\\bhow\\s+${word}\\b`, "i").test(query) ? terms : undefined;
}
