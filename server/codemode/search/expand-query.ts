// A query → its words, each with the index terms that answer it and how much each counts: the word itself (1),
// related words from the thesaurus, WordNet synonyms for words the thesaurus does not know, and — only for a
// word that nothing else matched and that is no English word, of four letters or more — its completions
// ("refu" → "refund") and near spellings ("ordr" → "order"). "what's" is a stop word and "check" a word, so
// neither reaches `whatsapp` or `check_grammar` by prefix.
import { termsWithPrefix, type FieldIndex } from "./field-index";
import { withinEdits } from "./edit-distance";
import { isPlural } from "./grammatical-number";
import {
  causativeParticiple,
  commandFirst,
  CONSTANT,
  DETERMINED,
  determined,
  nominalUse,
  passageWords,
  FILE_NAME,
  ITEM_NUMBER,
  inPassing,
  negated,
  pathWords,
  properNouns,
  purposeWords,
  INVENTORY,
  QUESTION,
  refusedVerbs,
  rejectedWords,
  withoutKept,
  writtenAsName,
} from "./query-shape";
import { howMeaning, phrasalVerb } from "./phrasal-verbs";
import { termOf } from "./normalize";
import {
  actionsOf,
  imperativeTerms,
  readManyTerms,
  readOneTerms,
  readTerms,
  itemTerms,
  listTerms,
  relatedTerms,
  settingTerms,
  WEIGHT,
} from "./thesaurus";
import { ABBREVIATIONS } from "./thesaurus-data";
import { isDictionaryWord, isVerb, wordnetSynonyms } from "./wordnet";
import { words } from "./words";

export const MATCH_WEIGHT = { exact: 1, wordnet: 0.3, prefix: 0.5, fuzzy: 0.5, impliedRead: 0.4, impliedList: 0.8 } as const;
const MAX_QUERY_WORDS = 32;
// What a word of a purpose clause or a scene counts after a command (a purpose clause's share: dev recall@1
// 76.1 → 77.2 % at 0.1–0.25, 76.6 % at 0.5).
const ASIDE_SHARE = 0.25;
// The least weight a thesaurus relation has; below it a word is reached by a WordNet sense only.
const THESAURUS_MATCH = 0.5;
const MAX_COMPLETIONS = 12;
const MIN_GUESS_CHARS = 4;

export type ImpliedReading = "setting" | "file" | "status" | "item" | "read" | "list";

export type QueryWord = {
  word: string;
  term: string;
  /** Is it an action (verb) word: "show", "delete", "send"? */
  action: boolean;
  /** Index terms answering this word, with weights; the term itself first when the index has it. */
  expansions: Map<string, number>;
  /** Written only inside a path, address or file name ("vercel/next.js", "stripe.com/docs"): an argument. */
  inPath?: true;
  /**
   * Written as an English word in passing ("dump everything", "long-term memory"), or only in what a command is
   * for or when it is done ("… so I can paste it into Slack"): it names no server.
   */
  inPassing?: true;
  /** Not written but implied (the reading a question asks for): no evidence for or against a match. */
  implied?: true;
  /** Which reading an implied word is: a setting, a file, a new status, a numbered item, reading, listing. */
  reading?: ImpliedReading;
  /** Written as a plural noun ("bugs", "PRs"): asks for many, as `list_issues` does, not one (`get_issue`). */
  plural?: true;
};

/**
 * The words a request asks for, each with its expansions; what it says to keep ("…, but keep both nodes") is not
 * among them. `names`: terms that name a server ("linear", "everything"): matched as written, never as an English word.
 */
export function expandQuery(request: string, index: FieldIndex, names: ReadonlySet<string> = NO_NAMES): QueryWord[] {
  const { query: commanded, scene } = commandFirst(withoutKept(request));
  const query = doneAgain(commanded, index);
  const seen = new Set<string>();
  const out: QueryWord[] = [];
  const inPaths = new Set(pathWords(query));
  const proper = properNouns(query);
  const participle = causativeParticiple(query);
  const purpose = purposeWords(query);
  const rejected = rejectedWords(query);
  const refused = refusedVerbs(query);
  const passage = passageWords(query);
  const asideAt: number[] = [];
  const sceneAt: number[] = [];
  let imperativeRequest = false;
  let imperativeWord: string | undefined;
  const particles = new Set<string>();
  for (const written of [...words(query), ...negated(query).filter((term) => !refused.has(term.slice(2)))]) {
    if (participle && out.length === 0 && written === "get") continue;
    if (particles.delete(written) || passage.has(written)) continue;
    // An abbreviation is its words ("PR" is "pull request"), each a full query word; the tools that say "PR"
    // still match it through the first.
    const spelled = ABBREVIATIONS.get(written);
    for (const [i, word] of (spelled ? words(spelled) : [written]).entries()) {
      // A server named by a function word ("with the everything server") is still named.
      const term = termOf(word) ?? (names.has(word) && writtenAsName(query, word) ? word : null);
      if (term === null || seen.has(term)) continue;
      // The alternative turned down ("archive the order instead of deleting it", "on GitLab rather than GitHub"):
      // its action and the server it names are not asked for; its object is the request's too.
      if (rejected.has(written) && ((names.has(term) && !inPassing(query, written)) || (actionsOf(term).size > 0 && !determined(query, written)))) continue;
      // A command not to do it ("don't delete it, just archive it"): the same.
      if (refused.has(written) && actionsOf(term).size > 0) continue;
      seen.add(term);
      const phrase = names.has(term) ? undefined : phrasalVerb(query, word);
      const phrasal = phrase?.terms;
      // Its particle ("roll the file back") is part of it, not a word of its own.
      if (phrase) particles.add(phrase.particle);
      const how = names.has(term) || phrasal ? undefined : howMeaning(query, word);
      const expansions = names.has(term)
        ? new Map([[term, MATCH_WEIGHT.exact]])
        : phrasal
          ? phrasalExpansions(phrasal, index)
          : how
            ? phrasalExpansions(how, index, WEIGHT.related)
            : expansionsOf(word, term, index, !proper.has(written));
      // An action word used as a noun or adjective ("the open bugs", "post the update") names no action: its
      // related actions go, the word itself stays. So is one in the noun phrase an abbreviation stands for, spelled
      // ("PR 5" is "pull request") or written out ("what pull requests are open").
      // So is one right after the command's verb, which takes a thing, not a second verb: "kill run #1287", "cancel
      // build 42".
      const nominal =
        actionsOf(term).size > 0 && (spelled !== undefined || inNounPhrase(query, written) || nominalUse(query, written) || (out.length === 1 && imperativeWord !== undefined && !written.endsWith("ing") && rightAfter(query, imperativeWord, written)));
      if (nominal) dropRelatedActions(expansions, term);
      const abbreviation = spelled && i === 0 ? termOf(written) : null;
      if (abbreviation && index.postings.has(abbreviation)) expansions.set(abbreviation, MATCH_WEIGHT.exact);
      // Words related to an earlier one ("lat/long", "remove or delete") ask for one thing: counted once.
      const same = out.find((earlier) => earlier.expansions.has(term) || relatedTerms(earlier.term).has(term));
      if (same) {
        for (const [candidate, weight] of expansions) {
          if (weight > (same.expansions.get(candidate) ?? 0)) same.expansions.set(candidate, weight);
        }
        continue;
      }
      // The first word of a request is its verb when it can be one: "file a ticket", "squash PR 42".
      // So is a command ("mkdir", "rm"): no English word, but the thesaurus knows the action it names.
      const imperative =
        out.length === 0 &&
        !nominal &&
        !QUESTION.test(query) &&
        !DETERMINED.test(query) &&
        /^[a-z]+$/.test(word) &&
        !LEADING_ADJECTIVES.has(word) &&
        (isVerb(word) || (!isDictionaryWord(word) && namesAction(expansions)));
      if (imperative) {
        imperativeRequest = true;
        imperativeWord = written;
        for (const [action, weight] of imperativeTerms(term)) {
          if (index.postings.has(action) && weight > (expansions.get(action) ?? 0)) expansions.set(action, weight);
        }
      }
      if (purpose.has(written)) asideAt.push(out.length);
      else if (scene.has(written)) sceneAt.push(out.length);
      out.push({
        word,
        term,
        action: (actionsOf(term).size > 0 && !nominal) || imperative || phrasal !== undefined || word === participle,
        expansions,
        ...(inPaths.has(written) && { inPath: true as const }),
        ...(inPassing(query, written) && { inPassing: true as const }),
        ...(isPlural(word) && { plural: true as const }),
      });
    }
    if (out.length >= MAX_QUERY_WORDS) break;
  }
  // After a command ("dump the tree so I can find the button"), a purpose clause's words say why, and a fronted
  // clause's when ("when the invoice is paid, archive the order"): they weigh a quarter and name no action and no
  // server. Without a command ("a URL I can send so people can pay") the purpose is the need.
  if (imperativeRequest) for (const at of asideAt) asAside(out[at]!);
  // A scene is one before a question too ("do we have a customer for maria@… before I make a new one?"); there a
  // server it names is still named ("before building a Salesforce report, what fields …?").
  if (imperativeRequest) for (const at of sceneAt) asAside(out[at]!);
  else if (QUESTION.test(query)) for (const at of sceneAt) if (!names.has(out[at]!.term)) asAside(out[at]!);
  // What a command says not to do ("write up an email but don't send it") is asked by no other word either: "email"
  // reaches "send" as a verb, which the request turned down.
  for (const verb of refused) {
    const term = termOf(verb);
    if (term && actionsOf(term).size > 0) for (const word of out) if (word.term !== term) word.expansions.delete(term);
  }
  // Reading a plural object is listing it: "show the open bugs" is `list_issues` as much as `get_issue`.
  if (out.some((word) => word.plural && !word.action)) {
    for (const word of out.filter((action) => action.action)) {
      const reads = readOneTerms().reduce((best, term) => Math.max(best, word.expansions.get(term) ?? 0), 0);
      // A WordNet sense ("remember" is "retrieve") is too loose to read the request as a reading.
      if (reads < THESAURUS_MATCH) continue;
      for (const term of readManyTerms()) {
        if (reads > (word.expansions.get(term) ?? 0) && index.postings.has(term)) word.expansions.set(term, reads);
      }
    }
  }
  // A constant's name is a setting's: environment variables and configuration are what it is read or set with.
  if (CONSTANT.test(query)) out.push(...impliedObject("setting", settingTerms(), index));
  // A file's name ("config.yml", "src/app.test.ts") names a file.
  if (FILE_NAME.test(query)) out.push(...impliedObject("file", ["file"], index));
  // "set PAY-412 to Done", "mark it as resolved", "change its state": a new status, what a workflow's transition sets.
  if (STATUS_CHANGE.test(query) || STATE_CHANGE.test(query)) out.push(...impliedObject("status", ["status", termOf("transition")!], index));
  // "#99", "PROJ-7": a numbered item of a tracker, an issue, pull request or ticket.
  if (ITEM_NUMBER.test(query)) out.push(...impliedObject("item", itemTerms(), index));
  // A question ("which invoices are unpaid?") or a request without a verb ("GitHub repos about Rust") asks to
  // read: tools that get, list or search are what it means, by a little.
  if (out.some((word) => word.expansions.size > 0) && (QUESTION.test(query) || !out.some((word) => word.action))) {
    const expansions = new Map<string, number>();
    for (const term of readTerms()) if (index.postings.has(term)) expansions.set(term, MATCH_WEIGHT.impliedRead);
    // "what forms do we have?", "which sprints are active?": listing them, more than getting one. Listing, not
    // searching too: "which quokka pens do we run?" is no search of workflow runs.
    const inventory = INVENTORY.test(query);
    if (inventory) for (const term of listTerms()) if (index.postings.has(term)) expansions.set(term, MATCH_WEIGHT.impliedList);
    out.push({ word: "", term: "", action: true, implied: true, reading: inventory ? "list" : "read", expansions });
  }
  return out;
}

const NO_NAMES: ReadonlySet<string> = new Set();
// Words that lead a request as adjectives or quantities ("top crashes", "last 30 posts"), not as its verb.
const LEADING_ADJECTIVES: ReadonlySet<string> = new Set(
  "top latest last first recent biggest largest best worst overdue pending unpaid unread total average daily weekly monthly yearly".split(" "),
);
const STATE_CHANGE = /\b(?:change|changes|changing|update|set|move|switch|advance|bump)\s+(?:[^\s,;:!?]+\s+){0,2}?(?:state|status|stage)\b/i;
const STATUS_CHANGE =
  /\b(?:to|as|into)\s+['"“]?(?:done|closed|complete|completed|resolved|reopened|in progress|in review|blocked|to ?do|backlog|won|lost|cancell?ed|approved|rejected|archived|paid|unpaid|published)\b/i;

/** An object the query implies without saying it, as a word of its own (none when no tool has its terms). */
function impliedObject(reading: ImpliedReading, terms: readonly string[], index: FieldIndex): QueryWord[] {
  const expansions = new Map<string, number>();
  for (const term of terms) if (index.postings.has(term)) expansions.set(term, WEIGHT.implied);
  return expansions.size > 0 ? [{ word: "", term: "", action: false, implied: true, reading, expansions }] : [];
}

// "open issue 7 again", "run the failed job again": a command done again is its "re-" verb ("reopen", "rerun") when
// the index or the thesaurus knows that word.
const AGAIN = /^(\s*(?:please\s+)?)([a-z]+)\b([^,;:!?—–]*?)\s+again\b/i;
function doneAgain(query: string, index: FieldIndex): string {
  const match = AGAIN.exec(query);
  if (!match) return query;
  const [whole, lead = "", written = "", rest = ""] = match;
  const verb = written.toLowerCase();
  const term = termOf(`re${verb}`);
  if (!isVerb(verb) || !term || (!index.postings.has(term) && actionsOf(term).size === 0)) return query;
  return `${lead}re${verb}${rest}${query.slice(whole.length)}`;
}

/** The actions a word reaches other than itself: gone where it names no action ("the open bugs", an aside). */
function dropRelatedActions(expansions: Map<string, number>, term: string): void {
  for (const candidate of expansions.keys()) if (candidate !== term && actionsOf(candidate).size > 0) expansions.delete(candidate);
}

function asAside(word: QueryWord): void {
  dropRelatedActions(word.expansions, word.term);
  for (const [candidate, weight] of word.expansions) word.expansions.set(candidate, weight * ASIDE_SHARE);
  word.action = false;
  // Nor does it name a server: "… so I can paste it into Slack" acts elsewhere.
  word.inPassing = true;
}

/** The phrases abbreviations stand for ("pull request", "merge request"), by their first word: each a noun. */
const NOUN_PHRASES = new Map<string, RegExp[]>();
for (const phrase of ABBREVIATIONS.values()) {
  const [first, ...rest] = words(phrase);
  if (rest.length === 0) continue;
  const list = NOUN_PHRASES.get(first!) ?? [];
  list.push(new RegExp(`${rest.map((word) => `\\s+${word}`).join("")}s?\\b`, "iy"));
  NOUN_PHRASES.set(first!, list);
}
/**
 * Does this word, where the request first writes it (the place its query word stands for), begin a noun phrase an
 * abbreviation stands for ("what pull requests are open")?
 */
function inNounPhrase(query: string, word: string): boolean {
  const phrases = NOUN_PHRASES.get(word);
  const at = phrases && new RegExp(`\\b${word}\\b`, "i").exec(query);
  if (!at) return false;
  return phrases.some((phrase) => {
    phrase.lastIndex = at.index + word.length;
    return phrase.test(query);
  });
}

/** Whether `second` is written right after `first`, as the first words of the request ("kill run #1287"). */
function rightAfter(query: string, first: string, second: string): boolean {
  return new RegExp(`^\\W*(?:please\\s+)?${first}\\s+${second}\\b`, "i").test(query);
}

function namesAction(expansions: ReadonlyMap<string, number>): boolean {
  for (const [term, weight] of expansions) if (weight >= THESAURUS_MATCH && actionsOf(term).size > 0) return true;
  return false;
}

// A phrasal verb is its meaning, the joined word ("signup") as an exact match, the rest as the verb's relatives.
function phrasalExpansions(
  meaning: readonly string[],
  index: FieldIndex,
  first: number = MATCH_WEIGHT.exact,
): Map<string, number> {
  const expansions = new Map<string, number>();
  meaning.forEach((term, i) => {
    if (index.postings.has(term)) expansions.set(term, i === 0 ? first : WEIGHT.action);
  });
  return expansions;
}

function expansionsOf(word: string, term: string, index: FieldIndex, english: boolean): Map<string, number> {
  const expansions = new Map<string, number>();
  const add = (candidate: string, weight: number) => {
    if (index.postings.has(candidate) && weight > (expansions.get(candidate) ?? 0)) expansions.set(candidate, weight);
  };
  add(term, MATCH_WEIGHT.exact);
  const related = relatedTerms(term);
  for (const [candidate, weight] of related) add(candidate, weight);
  if (english && /^[a-z]{3,}$/.test(word)) {
    for (const synonym of wordnetSynonyms(word)) {
      const synonymTerm = termOf(synonym);
      if (synonymTerm) add(synonymTerm, MATCH_WEIGHT.wordnet);
    }
  }
  // Completions and near spellings only for what is not a word: "crash" is not a typo of "trash".
  if (
    english &&
    expansions.size === 0 &&
    word.length >= MIN_GUESS_CHARS &&
    /^[a-z]+$/.test(word) &&
    !isDictionaryWord(word)
  ) {
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
