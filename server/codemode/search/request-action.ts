// What a request asks to do, as a probability over actions: a softmax model over the request's words, trained on
// the bench catalog's example requests (bench/codemode/search-quality/train-request-action.ts, D196). An action is
// an ACTIONS line of the thesaurus, named by its first word ("get", "create", "cancel"); a tool's is the line of the
// first action word of its name (`abort_build` → cancel), "none" when its name has none (`maps_geocode`). The model
// reads the whole request at once, so "kill run #1287" leans to cancelling and "is the checkout API down?" to
// reading one, where the words alone reach tools of every action.
import type { QueryWord } from "./expand-query";
import { determined, refusedVerbs, rejectedWords } from "./query-shape";
import { termOf } from "./normalize";
import { actionsOf } from "./thesaurus";
import { ACTIONS } from "./thesaurus-data";
import { REQUEST_ACTION_MODEL, type RequestActionModel } from "./request-action-data";
import { words } from "./words";

let on = true;

/**
 * Whether search weighs its first answers by the model (D196). On by default; the bench measures the words alone
 * with `--no-request-actions`, and tests turn it off to show what it changes.
 */
export function setRequestActions(value: boolean): void {
  on = value;
}

export function requestActionsOn(): boolean {
  return on;
}

/** The action of a tool whose name has no action word. */
export const NO_ACTION = "none";

/** An ACTIONS line's name: its first word. */
const lineNames = ACTIONS.map((line) => line.split(" ")[0]!);

/** The names of the ACTIONS lines a term is on ("kill" → delete, cancel …). */
function actionNames(term: string): string[] {
  return [...actionsOf(term)].map((line) => lineNames[line]!);
}

/** The words a question starts with, each a feature of its own ("is it down?" reads one thing's state). */
const QUESTION_WORDS = new Set("what which who how is are does do did has have when where why can".split(" "));

/**
 * A request's features, from the words the ranker reads in it (expand-query.ts: what it turns down, paths and
 * addresses left out): each word's term, the actions the thesaurus gives a word used as a verb (so that a verb no
 * example request used, "draw", still says something) or, for a first word it does not read as a verb and no
 * ACTIONS line has, the actions its relations reach ("unlink" → delete relations), the first word, each reading the rules imply (a list for "what
 * files are there", a new status for "set it to Done", a numbered item …), whether a noun is plural; and from the
 * text, the question word it starts with and a final question mark.
 */
export function requestFeatures(read: readonly QueryWord[], text: string): string[] {
  const features = new Set<string>();
  let first = true;
  for (const word of read) {
    if (word.inPath) continue;
    if (word.implied) {
      features.add(`i:${word.reading}`);
      continue;
    }
    features.add(`w:${word.term}`);
    if (word.plural) features.add("plural");
    const own = actionNames(word.term);
    const lines = word.action ? own : first && own.length === 0 ? relatedActions(word) : [];
    for (const line of lines) features.add(`a:${line}`);
    if (first) {
      features.add(`f:${word.term}`);
      for (const line of lines) features.add(`fa:${line}`);
      first = false;
    }
  }
  const start = words(text)[0]?.toLowerCase();
  if (start !== undefined && QUESTION_WORDS.has(start)) features.add(`q:${start}`);
  if (/\?\s*$/u.test(text)) features.add("qm");
  return [...features];
}

/** The actions a word no ACTIONS line has reaches through its relations ("unlink" → delete relations). */
function relatedActions(word: QueryWord): string[] {
  return [...new Set([...word.expansions.keys()].flatMap(actionNames))];
}

/** The action of a tool's name terms: the line of the first action word (the first line it is on), or NO_ACTION. */
export function actionOfName(nameTerms: readonly string[]): string {
  for (const term of nameTerms) {
    const lines = actionsOf(term);
    if (lines.size > 0) return lineNames[Math.min(...lines)]!;
  }
  return NO_ACTION;
}

type Loaded = { classes: readonly string[]; bias: readonly number[]; weights: Map<string, { classes: number[]; values: number[] }> };
const loaded = new WeakMap<RequestActionModel, Loaded>();

function load(model: RequestActionModel): Loaded {
  let out = loaded.get(model);
  if (out) return out;
  const weights = new Map<string, { classes: number[]; values: number[] }>();
  for (const [feature, line] of Object.entries(model.weights)) {
    const entry = { classes: [] as number[], values: [] as number[] };
    for (const pair of line.split(" ")) {
      const [k, v] = pair.split(":");
      entry.classes.push(Number(k));
      entry.values.push(Number(v));
    }
    weights.set(feature, entry);
  }
  out = { classes: model.classes, bias: model.bias, weights };
  loaded.set(model, out);
  return out;
}

/** The probability of each action the model knows, for a request. */
export function predictAction(read: readonly QueryWord[], text: string, model: RequestActionModel = REQUEST_ACTION_MODEL): Map<string, number> {
  const { classes, bias, weights } = load(model);
  const z = Float64Array.from(bias);
  for (const feature of requestFeatures(read, text)) {
    const entry = weights.get(feature);
    if (!entry) continue;
    for (let i = 0; i < entry.classes.length; i++) {
      const k = entry.classes[i]!;
      z[k] = z[k]! + entry.values[i]!;
    }
  }
  const probabilities = softmax(classes, z);
  for (const action of turnedDown(read, text)) if (probabilities.has(action)) probabilities.set(action, 0);
  return probabilities;
}

/**
 * The actions a request turns down ("don't merge PR 5, just close it", "archive the order instead of deleting it"):
 * not asked for, however often the model saw them with the request's object. The ranker leaves those verbs out
 * already (expand-query.ts); the model, which reads the object too, is told so here. An action the request also asks
 * for, in another word, stays.
 */
export function turnedDown(read: readonly QueryWord[], text: string): Set<string> {
  const out = new Set<string>();
  const verbs = [...refusedVerbs(text), ...[...rejectedWords(text)].filter((word) => !determined(text, word))];
  for (const verb of verbs) {
    const term = termOf(verb);
    if (term) for (const action of actionNames(term)) out.add(action);
  }
  for (const word of read) {
    if (word.action) for (const action of actionNames(word.term)) out.delete(action);
  }
  return out;
}

export function softmax(classes: readonly string[], z: Float64Array): Map<string, number> {
  let max = -Infinity;
  for (const value of z) max = Math.max(max, value);
  let sum = 0;
  for (let k = 0; k < z.length; k++) sum += z[k] = Math.exp(z[k]! - max);
  return new Map(classes.map((name, k) => [name, z[k]! / sum]));
}

/**
 * For one request's probabilities, each tool's share of the request's action, from 0 to 1: its action's probability
 * over the likeliest action's (found once for all the tools it is asked of). Where
 * the model cannot say, the tool keeps 1 and the words decide: a tool whose name has no action word
 * (`transition_issue`, `maps_geocode`; "set ticket PAY-412 to Done" is a Jira transition, where the bench's catalog
 * has `update_ticket`), and an action no tool it was trained on does (`counted` → count: "how often did it chirp?").
 * "None" is the naming of the catalog it was trained on, not an action: it sets no scale either ("bucket list",
 * whose "bucket" the bench's catalog asks of tools named without a verb, still lists buckets).
 */
export function actionShares(probabilities: ReadonlyMap<string, number>): (action: string) => number {
  let best = 0;
  for (const [action, p] of probabilities) if (action !== NO_ACTION) best = Math.max(best, p);
  return (action) => {
    const p = probabilities.get(action);
    return action === NO_ACTION || p === undefined || best === 0 ? 1 : p / best;
  };
}
