// Trains the request-action model (D196): a softmax regression from a request's features (request-action.ts
// `requestFeatures`) to the action of the tool it is for (`actionOfName`), on the example requests alone
// (example-requests.jsonl: eight per tool, written blind to every query split). Deterministic: a fixed shuffle, a
// fixed number of epochs. Features used by fewer than MIN_REQUESTS requests are left out (an id, a one-off name),
// and weights smaller than MIN_WEIGHT, the rest rounded to two decimals, which keeps the module small.
//
//   npx tsx bench/codemode/search-quality/train-request-action.ts           # rewrites server/codemode/search/request-action-data.ts
//   npx tsx bench/codemode/search-quality/train-request-action.ts --check   # exits 1 when that file is not what this writes
import path from "node:path";
import { actionOfName, requestFeatures, softmax } from "../../../server/codemode/search/request-action";
import type { RequestActionModel } from "../../../server/codemode/search/request-action-data";
import { nameOf } from "../../../server/codemode/search/tool-fields";
import { createToolIndex } from "../../../server/codemode/tool-search";
import { loadTools, toolKey, type DatasetTool } from "./dataset";
import { writeOrCheck } from "./generated-module";
import { checkedRequestsByTool, loadExampleRequests, type ExampleRequests } from "./mine-relations";
import { toSearchable } from "./searchable-tools";

export const OUTPUT = path.resolve(import.meta.dirname, "../../../server/codemode/search/request-action-data.ts");
const MIN_REQUESTS = 3;
const MIN_WEIGHT = 0.5;
const EPOCHS = 30;
const LEARNING_RATE = 0.1;
const L2 = 1e-4;

export type Sample = { features: string[]; action: string };

/** One sample per example request: its features (those of at least MIN_REQUESTS requests) and its tool's action. */
export function samplesOf(tools: readonly DatasetTool[], examples: readonly ExampleRequests[]): Sample[] {
  const searchable = tools.map((tool) => toSearchable(tool));
  const actionOf = new Map(tools.map((tool, i) => [toolKey(tool), actionOfName(nameOf(searchable[i]!).nameTerms)]));
  const index = createToolIndex(searchable);
  const samples: Sample[] = [];
  for (const [tool, requests] of checkedRequestsByTool(examples)) {
    const action = actionOf.get(tool);
    if (action === undefined) throw new Error(`example requests of ${tool}, which is not in the catalog`);
    for (const request of requests) {
      const read = index.read(request);
      samples.push({ features: requestFeatures(read.words, read.text), action });
    }
  }
  const uses = new Map<string, number>();
  for (const sample of samples) for (const feature of sample.features) uses.set(feature, (uses.get(feature) ?? 0) + 1);
  return samples.map((sample) => ({ ...sample, features: sample.features.filter((feature) => uses.get(feature)! >= MIN_REQUESTS) }));
}

/** Stochastic gradient descent on the softmax's log loss with an L2 penalty, in a fixed order per epoch. */
export function train(samples: readonly Sample[]): RequestActionModel {
  const classes = [...new Set(samples.map((sample) => sample.action))].sort();
  const indexOf = new Map(classes.map((name, i) => [name, i]));
  const K = classes.length;
  const bias = new Float64Array(K);
  const weights = new Map<string, Float64Array>();
  const weightsOf = (feature: string) => {
    let row = weights.get(feature);
    if (!row) weights.set(feature, (row = new Float64Array(K)));
    return row;
  };
  const order = samples.map((_, i) => i);
  let seed = 12345;
  const random = () => (seed = (seed * 1103515245 + 12345) & 0x7fffffff) / 0x7fffffff;
  const z = new Float64Array(K);
  for (let epoch = 0; epoch < EPOCHS; epoch++) {
    for (let i = order.length - 1; i > 0; i--) {
      const j = Math.floor(random() * (i + 1));
      [order[i], order[j]] = [order[j]!, order[i]!];
    }
    const rate = LEARNING_RATE / (1 + epoch * 0.2);
    for (const i of order) {
      const sample = samples[i]!;
      const rows = sample.features.map(weightsOf);
      z.set(bias);
      for (const row of rows) for (let k = 0; k < K; k++) z[k] = z[k]! + row[k]!;
      const p = softmax(classes, z);
      const target = indexOf.get(sample.action)!;
      classes.forEach((name, k) => {
        const gradient = p.get(name)! - (k === target ? 1 : 0);
        bias[k] = bias[k]! - rate * gradient;
        for (const row of rows) row[k] = row[k]! - rate * (gradient + L2 * row[k]!);
      });
    }
  }
  const kept: Record<string, string> = {};
  for (const feature of [...weights.keys()].sort()) {
    const pairs = [...weights.get(feature)!]
      .map((value, k) => [k, Math.round(value * 100) / 100] as const)
      .filter(([, value]) => Math.abs(value) >= MIN_WEIGHT);
    if (pairs.length > 0) kept[feature] = pairs.map(([k, value]) => `${k}:${value}`).join(" ");
  }
  return { classes, bias: [...bias].map((value) => Math.round(value * 100) / 100), weights: kept };
}

export function renderModule(model: RequestActionModel): string {
  return [
    "// Generated by bench/codemode/search-quality/train-request-action.ts from example-requests.jsonl: do not edit.",
    "// A softmax model of what a request asks to do (request-action.ts), trained on eight written requests per tool",
    "// of the bench catalog, none of them a query of any split (D196).",
    "",
    "export type RequestActionModel = {",
    "  classes: readonly string[];",
    "  bias: readonly number[];",
    '  /** Feature → "class:weight class:weight …" (a class by its index in `classes`). */',
    "  weights: Readonly<Record<string, string>>;",
    "};",
    "",
    "export const REQUEST_ACTION_MODEL: RequestActionModel = {",
    `  classes: ${JSON.stringify(model.classes)},`,
    `  bias: ${JSON.stringify(model.bias)},`,
    "  weights: {",
    ...Object.entries(model.weights).map(([feature, line]) => `    ${JSON.stringify(feature)}: ${JSON.stringify(line)},`),
    "  },",
    "};",
    "",
  ].join("\n");
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const model = train(samplesOf(loadTools(), loadExampleRequests()));
  writeOrCheck(OUTPUT, renderModule(model), "train-request-action.ts", `${Object.keys(model.weights).length} features`);
}
