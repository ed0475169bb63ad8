// The shape of a query, apart from its words: what is a question, a negation, a name, an argument (a path,
// an address, a constant, a quoted text) and a noun after a determiner. Pure regular expressions over the text.
import { isDictionaryWord } from "./wordnet";
import { words } from "./words";

// "not staged", "isn't merged", "never paid": tools name these `unstaged`, `unmerged`, `unpaid`.
const NEGATED =
  /\b(?:not|never|cannot|\w+n['’]t|dont|doesnt|didnt|isnt|arent|wasnt|hasnt|havent|wont)\s+(?:yet\s+)?([a-z]{3,})/gi;
export function negated(query: string): string[] {
  return [...query.matchAll(NEGATED)].map((match) => `un${match[1]!.toLowerCase()}`);
}

// A product's name is capitalised ("Slack"), follows a preposition ("in memory", "with the everything
// server", "in long-term memory": a hyphenated modifier may come between), precedes "server", or is no English
// word ("github"); otherwise an English word that happens to name a server ("dump everything", "what time") is
// just a word.
export function inPassing(query: string, word: string): boolean {
  return /^[a-z]+$/.test(word) && isDictionaryWord(word) && !writtenAsName(query, word);
}

export function writtenAsName(query: string, word: string): boolean {
  const capitalised = new RegExp(`(?<!\\p{L})${word[0]!.toUpperCase()}${word.slice(1)}(?!\\p{L})`, "u");
  const context = new RegExp(
    `\\b(?:in|on|with|via|using|from|through|into|at)\\s+(?:the\\s+|my\\s+|our\\s+)?(?:[a-z]+-[a-z]+\\s+)?${word}\\b(?!-)|\\b${word}\\s+(?:server|mcp|app|api)\\b`,
    "i",
  );
  return capitalised.test(query) || context.test(query);
}

// Tokens with a dot or slash between letters: repositories, URLs, e-mail addresses, file names. A word that
// appears only there names what to act on, not which tool.
// So are constants ("DATABASE_URL", "MAX_RETRIES"), the name of a setting, item keys ("PROJ-7"), and quoted text ('port: 80',
// "release is out"), what to write or find.
const PATH =
  /\S*[\p{L}\d][./@][\p{L}\d]\S*|(?<![\w-])[A-Z][A-Z\d]*(?:_[A-Z\d]+)+(?![\w-])|\b[A-Z][A-Z\d]{1,9}-\d+\b|(?<![\p{L}\d])'[^']+'(?![\p{L}\d])|"[^"]+"|“[^”]+”|‘[^’]+’/gu;
export const FILE_NAME =
  /[\w-]\.(?:ya?ml|json|tsx?|jsx?|mjs|md|txt|csv|tsv|pdf|py|go|rs|java|rb|php|toml|ini|env|conf|cfg|xml|html?|css|sql|sh|log|png|jpe?g|gif|svg|docx?|xlsx?|pptx?|zip|gz|tar|lock)\b/i;
export const CONSTANT = /(?<![\w-])[A-Z][A-Z\d]*(?:_[A-Z\d]+)+(?![\w-])/u;
// "remove the link, but keep both nodes", "clear the cache and leave the config": what a request says to keep is
// not what it acts on, so its words are not searched. The clause runs to the next punctuation or the end, so a
// server named only inside it ("and leave the nodes in memory") is not named either.
const KEPT = /,?\s*\b(?:but|and)\s+(?:keep|leave|spare|preserve|retain)\b[^,.;:!?]*/gi;
export function withoutKept(query: string): string {
  return query.replace(KEPT, " ");
}

// "dump the page's tree so I can find the login button", "ack it so nobody else gets paged", "in order to …": a
// purpose clause says why, not what to do; its verb is not the request's action. The clause runs to the next
// punctuation or dash. Only its own words: a word written outside it too is the request's.
const PURPOSE =
  /\b(?:so\s+(?:that\s+)?(?:i|we|you|they|he|she|it|nobody|no\s+one|someone|everyone|everybody|people|visitors|customers|users|the(?:\s+[\p{L}-]+){1,3}?)\s+(?:else\s+)?(?:can|could|will|would|may|might|gets?|sees?|knows?|don['’]?t|doesn['’]?t|won['’]?t|never)|in\s+order\s+to|so\s+as\s+to)\b[^,.;:!?—–]*/giu;
export function purposeWords(query: string): Set<string> {
  return wordsOnlyIn(query, PURPOSE);
}

// "archive the order instead of deleting it", "on GitLab rather than GitHub", "merge it without deleting the
// branch": the alternative a request turns down, up to the next punctuation. Only its own words.
const REJECTED = /\b(?:instead\s+of|rather\s+than|without)\b[^,.;:!?—–]*/giu;
export function rejectedWords(query: string): Set<string> {
  return wordsOnlyIn(query, REJECTED);
}

// "don't delete the order, just archive it", "close the issue, but never delete it": a command not to do something
// (at the start, or after a comma, "but" or "and") turns its verb down. "isn't merged", "haven't paid" are states
// (negated above), and so is "files that don't match".
const REFUSED = /(?:^|[,;]\s*|\b(?:but|and)\s+)(?:please\s+)?(?:don['’]?t|do\s+not|never)\s+([a-z]+)/gi;
export function refusedVerbs(query: string): Set<string> {
  return new Set([...query.matchAll(REFUSED)].map((match) => match[1]!.toLowerCase()));
}

// "when the invoice is paid, archive the order", "before deleting the file, read it": a clause of time or condition
// sets the scene; the command is the request. Fronted (up to its comma), it is read after the command, so that the
// command's verb leads ("archive the order — when the invoice is paid"). Trailing ("read the file before you delete
// it"), it is a clause when a subject follows its conjunction; "before March 3" is a date. Either way its own words
// are the scene. A question is none ("when's the next pay run, and …", "when is it due?").
const FRONTED =
  /^\s*((?:before|after|once|when|whenever|if|unless|until|as\s+soon\s+as)(?!['’]|\s+(?:is|are|was|were|do|does|did|will|would|can|could|should|has|have|had)\b)\b[^,;:!?—–]*)[,;:—–]\s*(\S[\s\S]*)$/iu;
const TRAILING =
  /\s(?:when|whenever|once|after|before|until|as\s+soon\s+as)\s+(?:the|a|an|my|our|your|their|this|that|these|those|it|they|we|i|you|he|she|its|his|her)\s[^,;:!?—–]*[.?!]?\s*$/iu;
export function commandFirst(query: string): { query: string; scene: Set<string> } {
  const trailing = TRAILING.exec(query);
  if (trailing && trailing.index > 0) return { query, scene: ownWords(trailing[0], query.slice(0, trailing.index)) };
  const fronted = FRONTED.exec(query);
  if (!fronted) return { query: placeLast(query), scene: new Set() };
  const [, clause, command] = fronted;
  return { query: `${command} — ${clause}`, scene: ownWords(clause!, command!) };
}

// "On the local disk, mkdir -p …", "In QuickBooks, who do we owe?", "On Jira ticket PAY-1423, post a note …": a
// fronted place says where, and the command or question after its comma leads, so that its verb is read as the
// request's. The place's words stay the request's (they often name the server), only later.
const FRONTED_PLACE = /^\s*((?:in|on|at|inside|within|from|for|over\s+in|over\s+on)\s+[^,;:!?—–]{1,60}?)\s*,\s*(\S[\s\S]*)$/iu;
function placeLast(query: string): string {
  const fronted = FRONTED_PLACE.exec(query);
  return fronted ? `${fronted[2]} — ${fronted[1]}` : query;
}

/** The words of `part` that the rest of the request does not also write. */
function ownWords(part: string, rest: string): Set<string> {
  const outside = new Set(words(rest));
  return new Set(words(part).filter((word) => !outside.has(word)));
}

function wordsOnlyIn(query: string, clause: RegExp): Set<string> {
  return ownWords((query.match(clause) ?? []).join(" "), query.replace(clause, " "));
}

export function pathWords(query: string): string[] {
  const inPaths = (query.match(PATH) ?? []).flatMap((token) => words(token));
  const outside = new Set(words(query.replace(PATH, " ")));
  return inPaths.filter((word) => !outside.has(word));
}

// Capitalised words inside a sentence ("ask Priya", "Bob Smith", "Denver") are names: their English senses
// (a "bob" is a haircut) and near spellings are noise. The first word and abbreviations (PR, SKU) are not.
export function properNouns(query: string): Set<string> {
  const found = new Set<string>();
  for (const match of query.matchAll(/(?<=[\p{L}\d,;:)]\s+)\p{Lu}\p{Ll}+\b/gu)) {
    for (const word of words(match[0])) found.add(word);
  }
  return found;
}

// A request that starts with a determiner ("the open bugs", "my latest invoices") names a thing, not an action:
// its first content word is no verb; nor is any word right after a determiner ("post the update": a noun).
const DETERMINERS = "the|a|an|my|our|your|their|this|that|these|those|all|any|some|every|each";
export const DETERMINED = new RegExp(`^\\s*(?:${DETERMINERS})\\s`, "i");
export function determined(query: string, word: string): boolean {
  return new RegExp(`\\b(?:${DETERMINERS})\\s+${word}\\b`, "i").test(query);
}

// A word counted or placed in time names a thing, not an action: "the last 30 posts", "the next pay run", "her
// latest build". One modifier may stand between ("next pay run"). Not when a determiner follows it: then the
// word governs an object ("the bot should post the summary").
const QUANTIFIERS = "last|next|latest|recent|previous|first|past|few|several|many|\\d+";
// "sorted by most recently updated", "the newly created users", "PRs already merged": a participle after an adverb
// of time describes a thing.
const TIME_ADVERBS = "recently|newly|already|just|lately|previously|originally";
export function nominalUse(query: string, word: string): boolean {
  if (determined(query, word)) return true;
  if (/ed$/.test(word) && new RegExp(`\\b(?:${TIME_ADVERBS})\\s+${word}\\b`, "i").test(query)) return true;
  return new RegExp(
    `\\b(?:${QUANTIFIERS})\\s+(?:[a-z-]+\\s+)?${word}\\b(?!\\s+(?:${DETERMINERS}|me|us|him|her|them|it)\\b)`,
    "i",
  ).test(query);
}

// "proofread this: 'Their going to recieve the package tommorow'", "how do you say 'Your order has shipped' in
// German?": a quoted passage of four words or more is the text the tool works on, not words of the request. Only
// its own words: a word written outside it too is the request's.
/** Quoted text, in straight or curly quotes; an apostrophe inside a word ("don't") opens none. */
export const QUOTED = /(?<![\p{L}\d])'[^']+'(?![\p{L}\d])|"[^"]+"|“[^”]+”|‘[^’]+’/gu;
const PASSAGE_WORDS = 4;
export function passageWords(query: string): Set<string> {
  const passages = (query.match(QUOTED) ?? []).filter((quoted) => quoted.trim().split(/\s+/).length >= PASSAGE_WORDS);
  if (passages.length === 0) return new Set();
  let rest = query;
  for (const passage of passages) rest = rest.replace(passage, " ");
  return ownWords(passages.join(" "), rest);
}

// "what entries are stored in the vault?", "which sprints are active?", "what forms do we have?", "which Slack rooms
// exist": a question about what there is of a plural thing asks for the list of them more than for one of them.
export const INVENTORY =
  /^\s*(?:what|which)\s+(?:[\w-]+\s+){0,3}?[\w-]+s\s+(?:do|does|did|are|were|have|has|exist|live|sit|are\s+there|is\s+there)\b|\b(?:do|does)\s+(?:we|i|you|they)\s+have\b/i;
export const QUESTION = /^\s*(what|which|who|whose|how|when|where|is|are|was|were|has|have|does|did)\b|\?\s*$/i;

// "get the NDA signed", "have PR 7 merged by Friday": the thing is to be done, the participle is the action and
// "get" asks for nothing to be read. A participle before its noun ("get the failed jobs") is an adjective.
const CAUSATIVE =
  /^\s*(?:get|have)\s+(?:[^\s,;:!?]+\s+){1,4}?([a-z]+ed)(?=\s*(?:$|[,.;:!?]|(?:by|to|for|before|on|in|at|with|from|today|now|asap)\b))/i;
export function causativeParticiple(query: string): string | undefined {
  return CAUSATIVE.exec(query)?.[1]?.toLowerCase();
}

export const ITEM_NUMBER = /(?:^|[\s(])#\d+\b|\b[A-Z][A-Z\d]{1,9}-\d+\b/;
