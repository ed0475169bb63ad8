// The thesaurus as index terms: for a query term, the terms of tools that do what it asks, each with a weight
// below an exact match's 1. Built once, on first use, with the same normaliser as the index.
import { termOf } from "./normalize";
import { CATALOG_IMPLIES } from "./thesaurus-catalog";
import { MINED_IMPLIES } from "./thesaurus-mined";
import { ACTIONS, IMPERATIVES, IMPLIES, ITEM_WORDS, READ_ACTIONS, RELATED, SETTING_WORDS } from "./thesaurus-data";
import { words } from "./words";

/**
 * How much a related word counts next to the word itself (1); the catalog layer's lines half as much (D172), the
 * lines mined from example requests a little less than the hand-written ones (D174).
 */
export const WEIGHT = { action: 0.6, related: 0.6, implied: 0.6, catalog: 0.3, mined: 0.5 } as const;

type Thesaurus = {
  actions: Map<string, Set<number>>;
  related: Map<string, Map<string, number>>;
  imperative: Map<string, Map<string, number>>;
  read: string[];
  /** The reading actions by line: [get …], [list], [search …]. */
  readLines: string[][];
  setting?: string[];
  item?: string[];
};
let built: Thesaurus | undefined;

/**
 * Which layers the thesaurus holds. All by default; the search-quality bench can leave out the related objects
 * and implications (grown from tune-split misses, D92) to measure a mechanism on paraphrases nobody wrote down,
 * the catalog layer (written per tool without the queries, D172) and the mined layer (from example requests,
 * D174) to measure what each adds.
 */
export type ThesaurusLayers = { related: boolean; implies: boolean; catalog: boolean; mined: boolean };
let layers: ThesaurusLayers = { related: true, implies: true, catalog: true, mined: true };

/** Sets the layers (benches and tests); the thesaurus is rebuilt on its next use. */
export function setThesaurusLayers(next: Partial<ThesaurusLayers>): void {
  layers = { ...layers, ...next };
  built = undefined;
}

function termsOf(line: string): string[] {
  return [...new Set(words(line).flatMap((word) => termOf(word) ?? []))];
}

function build(): Thesaurus {
  const actions = new Map<string, Set<number>>();
  const related = new Map<string, Map<string, number>>();
  const relate = (from: string, to: string, weight: number) => {
    if (from === to) return;
    const targets = related.get(from) ?? new Map<string, number>();
    targets.set(to, Math.max(weight, targets.get(to) ?? 0));
    related.set(from, targets);
  };
  ACTIONS.forEach((line, id) => {
    const terms = termsOf(line);
    for (const term of terms) {
      actions.set(term, (actions.get(term) ?? new Set()).add(id));
      for (const other of terms) relate(term, other, WEIGHT.action);
    }
  });
  for (const line of layers.related ? RELATED : []) {
    const terms = termsOf(line);
    for (const term of terms) for (const other of terms) relate(term, other, WEIGHT.related);
  }
  const imply = (lines: readonly string[], weight: number) => {
    for (const line of lines) {
      const [asked, meant] = line.split(">").map(termsOf);
      for (const term of asked!) for (const target of meant!) relate(term, target, weight);
    }
  };
  if (layers.implies) imply(IMPLIES, WEIGHT.implied);
  if (layers.catalog) imply(CATALOG_IMPLIES, WEIGHT.catalog);
  if (layers.mined) imply(MINED_IMPLIES, WEIGHT.mined);
  const imperative = new Map<string, Map<string, number>>();
  for (const line of IMPERATIVES) {
    const [verbs, meant] = line.split(">").map(termsOf);
    for (const verb of verbs!) imperative.set(verb, new Map(meant!.map((term) => [term, WEIGHT.action])));
  }
  const readLines = READ_ACTIONS.map((line) => termsOf(line));
  return { actions, related, imperative, read: readLines.flat(), readLines };
}

function thesaurus(): Thesaurus {
  built ??= build();
  return built;
}

/** The actions a term names (ids of ACTIONS lines), empty when it names none. */
export function actionsOf(term: string): ReadonlySet<number> {
  return thesaurus().actions.get(term) ?? EMPTY;
}
const EMPTY: ReadonlySet<number> = new Set();

/** Terms related to `term` with their weights (the term itself not included). */
export function relatedTerms(term: string): ReadonlyMap<string, number> {
  return thesaurus().related.get(term) ?? NONE;
}
const NONE: ReadonlyMap<string, number> = new Map();

/** The actions a noun names when it leads a request as its verb ("file a bug": create), with weights. */
export function imperativeTerms(term: string): ReadonlyMap<string, number> {
  return thesaurus().imperative.get(term) ?? NONE;
}

/** The terms of reading actions (get, list, search and theirs). */
export function readTerms(): readonly string[] {
  return thesaurus().read;
}

/** The terms of reading one (get, show and theirs). */
export function readOneTerms(): readonly string[] {
  return thesaurus().readLines[0]!;
}

/** The terms of listing ("list"): what a question about what there is asks for. */
export function listTerms(): readonly string[] {
  return thesaurus().readLines[1]!;
}

/** The terms of reading many (list, search and theirs). */
export function readManyTerms(): readonly string[] {
  return thesaurus().readLines.slice(1).flat();
}

/** The terms of settings: what a constant's name ("DATABASE_URL") is read or set with. */
export function settingTerms(): readonly string[] {
  thesaurus().setting ??= termsOf(SETTING_WORDS);
  return thesaurus().setting!;
}

/** The terms of a tracker's numbered items ("#99", "PROJ-7"). */
export function itemTerms(): readonly string[] {
  thesaurus().item ??= termsOf(ITEM_WORDS);
  return thesaurus().item!;
}
