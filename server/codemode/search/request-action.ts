// What a request asks to do, as a probability over actions: a softmax model over the request's words, trained on
// the bench catalog's example requests (bench/codemode/search-quality/train-request-action.ts, D196). An action is
// an ACTIONS line of the thesaurus, named by its first word ("get", "create", "cancel"); a tool's is the line of the
// first action word of its name (`abort_build` → cancel), "none" when its name has none (`maps_geocode`). The model
// reads the whole request at once, so "kill run #1287" leans to cancelling and "is the checkout API down?" to
// reading one, where the words alone reach tools of every action.
import type { QueryWord } from "./expand-query";
import { actionsOf } from "./thesaurus";
import { ACTIONS } from "./thesaurus-data";
import { REQUEST_ACTION_MODEL, type RequestActionModel } from "./request-action-data";
import { words } from "./words";

let on = false;

/**
 * Whether search weighs its first answers by the model (D196). Off by default: on the bench's blind splits it ranks
 * many more requests first, but it overrules rules the failure-case table holds (a question about what there is,
 * a command turned down, a new status), which it must keep before it is the default. The bench turns it on with
 * `--request-actions`.
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

/** The words a question starts with, each a feature of its own ("is it down?" reads one thing's state). */
const QUESTION_WORDS = new Set("what which who how is are does do did has have when where why can".split(" "));

/**
 * A request's features, from the words the ranker reads in it (expand-query.ts: what it turns down, paths and
 * addresses left out): each word's term, the actions the thesaurus gives a word used as a verb (so that a verb no
 * example request used, "draw", still says something), the first word, the reading a question implies, whether a
 * noun is plural; and from the text, the question word it starts with and a final question mark.
 */
export function requestFeatures(read: readonly QueryWord[], text: string): string[] {
  const features = new Set<string>();
  let first = true;
  for (const word of read) {
    if (word.inPath) continue;
    if (word.implied) {
      features.add("implied");
      continue;
    }
    features.add(`w:${word.term}`);
    if (word.plural) features.add("plural");
    const lines = word.action ? [...actionsOf(word.term)].map((line) => lineNames[line]!) : [];
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
  return softmax(classes, z);
}

export function softmax(classes: readonly string[], z: Float64Array): Map<string, number> {
  let max = -Infinity;
  for (const value of z) max = Math.max(max, value);
  let sum = 0;
  for (let k = 0; k < z.length; k++) sum += z[k] = Math.exp(z[k]! - max);
  return new Map(classes.map((name, k) => [name, z[k]! / sum]));
}

/**
 * A tool's share of the request's action, from 0 to 1: its action's probability over the likeliest action's. An
 * action the model never saw (no catalog tool it was trained on does it) counts as a uniform guess.
 */
export function actionShare(probabilities: ReadonlyMap<string, number>, action: string): number {
  return actionShares(probabilities)(action);
}

/** `actionShare` for one request's probabilities, the likeliest found once for all the tools it is asked of. */
export function actionShares(probabilities: ReadonlyMap<string, number>): (action: string) => number {
  let best = 0;
  for (const p of probabilities.values()) best = Math.max(best, p);
  const guess = 1 / Math.max(1, probabilities.size);
  return (action) => (best > 0 ? (probabilities.get(action) ?? guess) / best : 1);
}
