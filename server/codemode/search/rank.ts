// Scores every tool for an expanded query. The sum of each query word's best-matching term (its other terms
// count a little: "draw" found as both "generate" and "image" beats either alone), then two structural signals:
// how much of the tool's own name the query covers (its action and its object: "comment on issue 5" covers
// all of `add_issue_comment` but only half of `get_issue`), and a server the query names ("in Postgres").
import type { FieldIndex } from "./field-index";
import type { QueryWord } from "./expand-query";
import { actionsOf } from "./thesaurus";
import { isDictionaryWord } from "./wordnet";

const isAction = (term: string) => actionsOf(term).size > 0;

/** `nameTerms`: the words of the tool's name, less those repeating its server's (`maps_geocode` of google-maps). */
export type RankDoc = {
  nameTerms: readonly string[];
  server: string;
  /** The name's object terms, each with whether the name writes it plural (`list_issues`: issue → true). */
  objectNumber: ReadonlyMap<string, boolean>;
};
export type Ranked = { id: number; score: number };

const OTHER_TERMS = 0.3;
// A word seen only inside a path or address ("vercel/next.js") counts this much, and names no server.
const PATH_WORD = 0.5;
// An action word counts by what it does, not by how rare it is: "create" names half the tools and "add" a few,
// yet "open an issue" asks for either, and a rare verb ("check") must not outweigh the object ("status"). The
// related actions of an action word weigh as moderately common words, the word itself at most a little more.
const ACTION_IDF = 2;
const MAX_ACTION_IDF = 3;
const actionIdf = (exact: boolean, idf: number) => (exact ? Math.min(idf, MAX_ACTION_IDF) : ACTION_IDF);
const COVERAGE_GAIN = 1.5;
const SERVER_GAIN = 2;
const ACTION_MISMATCH = 0.8;
// How much a tool gains (or loses) when the number of its name's object agrees (or not) with the query's:
// "open bugs in PROJ" lists (`search_issues`), "bug PROJ-5" gets one (`get_issue`). Small: it orders
// near-duplicates that match the query alike, it does not overrule what the words say.
const NUMBER_GAIN = 0.1;
// A word reached only below this (a WordNet sense) says nothing about the tool's object.
const NUMBER_MATCH = 0.5;

export type RankInput = {
  index: FieldIndex;
  docs: readonly RankDoc[];
  query: readonly QueryWord[];
  /** Index terms of each server's name → the servers they name. */
  serverTerms: ReadonlyMap<string, readonly string[]>;
  /** The other way round: each server → the index terms of its name (tool-fields.ts `serverNameTerms`). */
  serverNameTerms: ReadonlyMap<string, readonly string[]>;
  /** The words of the servers' names as written ("teams", "google", "maps"). */
  serverWords: ReadonlySet<string>;
  onlyServer?: string;
};

export function rankTools({ index, docs, query, serverTerms, serverNameTerms, onlyServer, serverWords }: RankInput): Ranked[] {
  const scores = new Float64Array(docs.length);
  const best = new Float64Array(docs.length);
  const sum = new Float64Array(docs.length);
  const namedBy = new Map<string, Set<string>>();
  for (const word of query) {
    if (namesServer(word, serverWords)) {
      for (const server of serverTerms.get(word.term) ?? []) namedBy.set(server, (namedBy.get(server) ?? new Set()).add(word.term));
    }
    const share = word.inPath ? PATH_WORD : 1;
    // An action word, also one used as a noun, counts by what it does (ACTION_IDF), not by how rare it is.
    const actionWord = word.action || isAction(word.term);
    const touched: number[] = [];
    for (const [term, weight] of word.expansions) {
      const posting = index.postings.get(term)!;
      const factor =
        share *
        weight *
        (actionWord && (isAction(term) || term === word.term)
          ? actionIdf(term === word.term, posting.idf)
          : posting.idf);
      for (let i = 0; i < posting.docs.length; i++) {
        const doc = posting.docs[i]!;
        const value = factor * posting.scores[i]!;
        if (sum[doc] === 0) touched.push(doc);
        sum[doc] = sum[doc]! + value;
        if (value > best[doc]!) best[doc] = value;
      }
    }
    for (const doc of touched) {
      scores[doc] = scores[doc]! + best[doc]! + OTHER_TERMS * (sum[doc]! - best[doc]!);
      best[doc] = 0;
      sum[doc] = 0;
    }
  }
  const named = namedServers(namedBy, serverNameTerms);
  const weightOf = termWeights(query);
  const actionWeightOf = actionWeights(query);
  const asksAction = query.some((word) => word.action && !word.implied);
  const out: Ranked[] = [];
  for (let id = 0; id < docs.length; id++) {
    const doc = docs[id]!;
    if (onlyServer !== undefined && doc.server !== onlyServer) continue;
    const inNamed = named.has(doc.server);
    if (scores[id] === 0 && !inNamed) continue;
    let score = scores[id]! * (1 + COVERAGE_GAIN * coverage(doc.nameTerms, weightOf, actionWeightOf));
    score *= 1 + NUMBER_GAIN * numberAgreement(doc.objectNumber, query);
    // A tool whose name says another action than the one asked ("list_records" for "add an entry") ranks lower.
    if (asksAction && actionMissed(doc.nameTerms, weightOf)) score *= ACTION_MISMATCH;
    // A named server's tools come first, even those matching nothing else (the agent asked for that server).
    if (inNamed) score = score * SERVER_GAIN + 1;
    out.push({ id, score });
  }
  return out;
}

/**
 * The servers a query names. A server named only by a word that another server's full name shares, where the query
 * writes that whole name, is not named: "Google Analytics" names `google-analytics`, not `google-maps`.
 */
function namedServers(namedBy: ReadonlyMap<string, ReadonlySet<string>>, termsOf: ReadonlyMap<string, readonly string[]>): Set<string> {
  if (namedBy.size < 2) return new Set(namedBy.keys());
  const whole = [...namedBy].filter(([server, by]) => by.size > 1 && (termsOf.get(server) ?? []).every((term) => by.has(term)));
  const named = new Set<string>();
  for (const [server, by] of namedBy) {
    const within = whole.some(([other, otherBy]) => other !== server && [...by].every((term) => otherBy.has(term)));
    if (!within) named.add(server);
  }
  return named;
}

/**
 * Whether a query word names a server: not inside a path or in passing, and, for an English word, written as the
 * server writes it. "on the team" and "Team Wiki" do not name the `teams` server, whose stem they share; "Postgres"
 * or "GitHub" name theirs however they are spelled.
 */
function namesServer(word: QueryWord, serverWords: ReadonlySet<string>): boolean {
  if (word.inPath || word.inPassing) return false;
  return serverWords.has(word.word) || !isDictionaryWord(word.word);
}

/** Each index term the query reaches, with the best weight it is reached by. */
export function termWeights(query: readonly QueryWord[]): Map<string, number> {
  const weights = new Map<string, number>();
  for (const word of query) {
    for (const [term, weight] of word.expansions) weights.set(term, Math.max(weight, weights.get(term) ?? 0));
  }
  return weights;
}

/**
 * The same, from the words that can say what to do: an action word used as a noun ("the last 30 posts", "the next
 * pay run") names a thing, so it does not cover the action that leads a tool's name (`post_message`, `run_payroll`).
 */
export function actionWeights(query: readonly QueryWord[]): Map<string, number> {
  return termWeights(query.filter((word) => word.action || word.implied || !isAction(word.term)));
}

function actionMissed(nameTerms: readonly string[], weightOf: ReadonlyMap<string, number>): boolean {
  const actions = nameTerms.filter(isAction);
  return actions.length > 0 && actions.every((term) => !weightOf.has(term));
}

/** From -1 (every object word the query shares with the name differs in number) to 1 (all agree); 0 if none. */
export function numberAgreement(objectNumber: ReadonlyMap<string, boolean>, query: readonly QueryWord[]): number {
  let agree = 0;
  let compared = 0;
  for (const word of query) {
    // A singular verb ("create") is no object; a plural word is a noun.
    if (word.implied || word.inPath || (word.action && !word.plural)) continue;
    for (const [term, plural] of objectNumber) {
      if ((word.expansions.get(term) ?? 0) < NUMBER_MATCH) continue;
      compared++;
      if (plural === (word.plural === true)) agree++;
      break;
    }
  }
  return compared === 0 ? 0 : (2 * agree - compared) / compared;
}

function coverage(nameTerms: readonly string[], weightOf: ReadonlyMap<string, number>, actionWeightOf: ReadonlyMap<string, number>): number {
  if (nameTerms.length === 0) return 0;
  let covered = 0;
  for (const [i, term] of nameTerms.entries()) covered += (i === 0 && isAction(term) ? actionWeightOf : weightOf).get(term) ?? 0;
  return covered / nameTerms.length;
}
