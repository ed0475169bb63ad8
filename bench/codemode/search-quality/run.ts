// Search quality of code mode's search_tools: createToolIndex (server/codemode/tool-search.ts) over the dataset
// (508 tools, task queries with one correct tool each: tune, dev, dev2, the dev3 validation and held-out splits), every query with default options.
//
//   npm run bench:search-quality                      # held-out report (recall@1/5/10, MRR@10, tokens, timing)
//   npm run bench:search-quality -- --split all       # tune, dev, dev2, dev3 and held-out
//   npm run bench:search-quality -- --failures        # misses of the tuning splits asked (held-out
//                                                     # misses are never shown)
//   npm run bench:search-quality -- --split dev       # the second tuning split (dev-query-source.ts)
//   npm run bench:search-quality -- --split dev2      # the third (dev2-query-source.ts)
//   npm run bench:search-quality -- --split dev3      # the validation split: aggregates only, like held out
//   npm run bench:search-quality -- --split dev --no-scale --ranks-out /tmp/before.json   # each dev query's rank
//   npm run bench:search-quality -- --split dev --no-scale --ranks-against /tmp/before.json   # …and which moved since
//   npm run bench:search-quality -- --json            # machine-readable
//   npm run bench:search-quality -- --option server=github --option detail=name   # extra search options
//   npm run bench:search-quality -- --runs 5 --no-scale
//   npm run bench:search-quality -- --split tune --no-hand-relations   # the tune split without the thesaurus's
//                                                     # related objects and implications (fitted to tune, D92): a
//                                                     # stand-in for paraphrases nobody wrote down
//   npm run bench:search-quality -- --split tune --no-catalog-relations  # without the layer written per tool (D172)
//   npm run bench:search-quality -- --split dev --no-mined-relations     # without the layer mined from example
//                                                     # requests (D174)
//   npm run bench:search-quality -- --split dev --no-known-requests   # without the requests that ship for
//                                                     # well-known packages' tools (D176)
//   npm run bench:search-quality -- --split dev3 --no-request-actions   # without the request-action model
//                                                     # (D196): the words alone
//   npm run bench:search-quality -- --split dev --examples   # each tool with the example requests an admin would
//                                                     # write (example-requests.jsonl, 8 per tool): not the
//                                                     # offline default, a configuration (lib/tool-examples.ts)
//   npm run bench:search-quality -- --split dev --examples --examples-share 0.5   # only every other tool has
//                                                     # them: do the others lose ground? (reported apart)
//   npm run bench:search-quality -- --split dev --server-summaries   # each server with the one-line summary an
//                                                     # admin would write for browse_catalog (server-summaries.json,
//                                                     # written from tools.json alone): a configuration
//   BENCH_WRITE_DOCS=1 npm run bench:search-quality   # also rewrites its block in docs/benchmarks.md
//
// Recall is measured at 508 tools only. Timing is measured at 508 and at 5,080 (the dataset under ten
// server-name variants, queries unchanged). Held-out queries report only aggregates: tune on the tune and dev splits.
import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { parseArgs } from "node:util";
import { setKnownRequests } from "../../../server/codemode/search/known-requests";
import { setRequestActions } from "../../../server/codemode/search/request-action";
import { setThesaurusLayers, type ThesaurusLayers } from "../../../server/codemode/search/thesaurus";
import type { IndexableTool } from "../../../server/codemode/search/tool-fields";
import { createToolIndex, type ToolIndex } from "../../../server/codemode/tool-search";
import { writeDocsBlock } from "../../docs-block";
import { machineFacts } from "../../gateway/report";
import { AGGREGATES_ONLY, SPLITS as ALL_SPLITS, loadQueries, loadServerSummaries, loadTools, toolKey, type DatasetQuery, type DatasetTool, type Split } from "./dataset";
import { evaluate, type SearchOptionsIn, type SubsetReport, type TuneMiss } from "./evaluate";
import { percentile } from "./metrics";
import { rankChanges, tuningRanks, type Ranks } from "./rank-changes";
import { checkedRequestsByTool, loadExampleRequests } from "./mine-relations";
import { replicated, SCALE_SUFFIXES, toSearchable } from "./searchable-tools";

type Timing = { tools: number; buildMs: number; medianMs: number; p95Ms: number; searches: number };
type Result = {
  machine: Record<string, string>;
  options: SearchOptionsIn;
  /** "full", or the layers left out ("no hand relations, no mined relations"). */
  thesaurus: string;
  /** Example requests per tool indexed with it (--examples), or 0. */
  examplesPerTool: number;
  /** Whether the requests shipped for well-known packages' tools are indexed (not --no-known-requests). */
  knownRequests: boolean;
  /** Whether each server has its one-line summary (--server-summaries). */
  serverSummaries: boolean;
  /** Whether the request-action model weighs the first answers (not --no-request-actions, D196). */
  requestActions: boolean;
  dataset: Record<string, number>;
  quality: Record<string, SubsetReport>;
  timing: Timing[];
  failures: TuneMiss[] | undefined;
};

const { values: args } = parseArgs({
  options: {
    json: { type: "boolean", default: false },
    split: { type: "string", default: "heldout" },
    failures: { type: "boolean", default: false },
    option: { type: "string", multiple: true, default: [] },
    runs: { type: "string", default: "5" },
    "no-scale": { type: "boolean", default: false },
    "no-hand-relations": { type: "boolean", default: false },
    "no-catalog-relations": { type: "boolean", default: false },
    "no-mined-relations": { type: "boolean", default: false },
    examples: { type: "boolean", default: false },
    "no-known-requests": { type: "boolean", default: false },
    "no-request-actions": { type: "boolean", default: false },
    "examples-share": { type: "string", default: "1" },
    "server-summaries": { type: "boolean", default: false },
    "ranks-out": { type: "string" },
    "ranks-against": { type: "string" },
  },
  strict: true,
});

const isSplit = (name: string | undefined): name is Split => (ALL_SPLITS as readonly (string | undefined)[]).includes(name);
const SPLITS: Split[] = args.split === "all" ? [...ALL_SPLITS] : isSplit(args.split) ? [args.split] : [];
if (SPLITS.length === 0) throw new Error(`--split must be ${ALL_SPLITS.join(", ")} or all (got ${args.split})`);
const RUNS = Number(args.runs);
if (!Number.isInteger(RUNS) || RUNS < 1) throw new Error(`--runs must be a positive integer (got ${args.runs})`);
const OPTIONS = parseOptions(args.option);

/** `key=value` pairs; a value that parses as JSON (numbers, booleans, arrays) is taken as such, else a string. */
function parseOptions(pairs: readonly string[]): SearchOptionsIn {
  const options: SearchOptionsIn = {};
  for (const pair of pairs) {
    const at = pair.indexOf("=");
    if (at < 1) throw new Error(`--option takes key=value (got ${pair})`);
    const raw = pair.slice(at + 1);
    let value: unknown = raw;
    try {
      value = JSON.parse(raw);
    } catch {
      /* a plain string */
    }
    options[pair.slice(0, at)] = value;
  }
  return options;
}

/**
 * The tools as this run indexes them. With --server-summaries, each with its server's one-line summary
 * (server-summaries.json). With --examples, each as an admin who wrote example requests for it would have it
 * indexed: the requests of example-requests.jsonl (written from the tools alone, D174), checked as the REST API
 * checks them.
 */
function indexedTools(tools: readonly DatasetTool[]): { indexed: IndexableTool[]; perTool: number; chosen: Set<string> | undefined } {
  const summaries = args["server-summaries"] ? loadServerSummaries() : {};
  const plain: IndexableTool[] = tools.map((tool) => ({ ...toSearchable(tool), serverDescription: summaries[tool.server] ?? null }));
  if (!args.examples) return { indexed: plain, perTool: 0, chosen: undefined };
  const share = Number(args["examples-share"]);
  if (!(share > 0 && share <= 1)) throw new Error(`--examples-share must be in (0, 1] (got ${args["examples-share"]})`);
  // Which tools have requests: spread evenly over the tools in key order (every other one at 0.5).
  const keys = tools.map(toolKey).sort();
  const chosen = new Set(keys.filter((_, i) => Math.floor((i + 1) * share) > Math.floor(i * share)));
  const byTool = checkedRequestsByTool(loadExampleRequests());
  const indexed = tools.map((tool, i) => ({ ...plain[i]!, exampleRequests: chosen.has(toolKey(tool)) ? (byTool.get(toolKey(tool)) ?? []) : [] }));
  return { indexed, perTool: indexed.reduce((n, t) => n + t.exampleRequests.length, 0) / indexed.length, chosen: share < 1 ? chosen : undefined };
}

function build(tools: readonly IndexableTool[]): { index: ToolIndex; buildMs: number } {
  const started = performance.now();
  const index = createToolIndex(tools);
  return { index, buildMs: performance.now() - started };
}

/** Median and p95 of single searches, after one unmeasured pass over the queries. */
function time(index: ToolIndex, queries: readonly DatasetQuery[], runs: number, buildMs: number): Timing {
  for (const query of queries) index.search(query.query, { ...OPTIONS });
  const samples: number[] = [];
  for (let run = 0; run < runs; run++) {
    for (const query of queries) {
      const started = performance.now();
      index.search(query.query, { ...OPTIONS });
      samples.push(performance.now() - started);
    }
  }
  const p = (q: number) => percentile(samples, q);
  return { tools: index.size, buildMs, medianMs: p(50), p95Ms: p(95), searches: samples.length };
}

// The thesaurus layers a flag leaves out, and how the report names what is left out.
const LEFT_OUT: [
  flag: "no-hand-relations" | "no-catalog-relations" | "no-mined-relations",
  what: string,
  layers: Partial<ThesaurusLayers>,
][] = [
  ["no-hand-relations", "no hand relations", { related: false, implies: false }],
  ["no-catalog-relations", "no catalog relations", { catalog: false }],
  ["no-mined-relations", "no mined relations", { mined: false }],
];

function main(): void {
  for (const [flag, , layers] of LEFT_OUT) if (args[flag]) setThesaurusLayers(layers);
  if (args["no-known-requests"]) setKnownRequests(false);
  if (args["no-request-actions"]) setRequestActions(false);
  const tools = loadTools();
  const queries = loadQueries();
  const { indexed, perTool, chosen } = indexedTools(tools);
  const small = build(indexed);
  const { quality, tuneMisses } = evaluate(small.index, tools, queries, SPLITS, OPTIONS, chosen);
  const timing = [time(small.index, queries, RUNS, small.buildMs)];
  if (!args["no-scale"]) {
    const large = build(replicated(tools, SCALE_SUFFIXES));
    timing.push(time(large.index, queries, Math.max(1, Math.ceil(RUNS / 2)), large.buildMs));
  }
  const dataset = {
    tools: tools.length,
    realTools: tools.filter((tool) => tool.source !== undefined).length,
    servers: new Set(tools.map((tool) => tool.server)).size,
    queries: queries.length,
  };
  const result: Result = {
    machine: machineFacts(),
    options: OPTIONS,
    thesaurus:
      LEFT_OUT.filter(([flag]) => args[flag])
        .map(([, what]) => what)
        .join(", ") || "full",
    examplesPerTool: perTool,
    knownRequests: !args["no-known-requests"],
    serverSummaries: args["server-summaries"],
    requestActions: !args["no-request-actions"],
    dataset,
    quality,
    timing,
    failures: args.failures ? tuneMisses : undefined,
  };
  console.log(args.json ? JSON.stringify(result, null, 2) : render(result));
  const ranks = tuningRanks(queries, SPLITS, tuneMisses);
  if (args["ranks-out"]) writeFileSync(args["ranks-out"], `${JSON.stringify(ranks, null, 1)}\n`);
  if (args["ranks-against"]) {
    const changes = rankChanges(JSON.parse(readFileSync(args["ranks-against"], "utf8")) as Ranks, ranks);
    const shown = (rank: number | null) => (rank === null ? ">50" : String(rank));
    console.log(`\ntuning queries that moved against ${args["ranks-against"]}: ${changes.length}`);
    for (const c of changes) console.log(`${c.id.padEnd(32)} ${shown(c.before).padStart(3)} → ${shown(c.after)}`);
  }
  if (process.env.BENCH_WRITE_DOCS === "1") {
    if (result.thesaurus !== "full" || result.examplesPerTool > 0 || !result.knownRequests || result.serverSummaries || !result.requestActions) throw new Error("BENCH_WRITE_DOCS writes the shipped ranker's figures only");
    writeDocsBlock(
      path.resolve(import.meta.dirname, "../../../docs/benchmarks.md"),
      {
        begin: "<!-- bench:search-quality:begin (written by bench/codemode/search-quality/run.ts) -->",
        end: "<!-- bench:search-quality:end -->",
        heading: "Search quality of code mode (bench/codemode/search-quality)",
      },
      render({ ...result, failures: undefined }),
    );
  }
}

function render(result: Result): string {
  const pct = (v: number) => `${(v * 100).toFixed(1)}%`;
  const ms = (v: number) => (v < 10 ? v.toFixed(2) : v.toFixed(1));
  const m = result.machine;
  const lines = [
    `Run of ${m.date} at commit ${m.commit}: ${m.cpu} (${m.nproc} cores), ${m.memory}, node ${m.node}.`,
    `Dataset: ${result.dataset.tools} tools (${result.dataset.realTools} real) of ${result.dataset.servers} servers, ` +
      `${result.dataset.queries} queries; search options ${JSON.stringify(result.options)}` +
      `${result.thesaurus === "full" ? "" : `; thesaurus: ${result.thesaurus}`}` +
      `${result.examplesPerTool > 0 ? `; ${result.examplesPerTool.toFixed(1)} example requests per tool (--examples)` : ""}` +
      `${result.knownRequests ? "" : "; without the shipped requests of known packages' tools"}` +
      `${result.serverSummaries ? "; each server with its one-line summary (--server-summaries)" : ""}` +
      `${result.requestActions ? "" : "; without the request-action model (--no-request-actions)"}.`,
    "",
    "| queries | n | recall@1 | recall@5 | recall@10 | MRR@10 | recall@50 | answer tokens |",
    "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |",
    ...Object.entries(result.quality).map(
      ([name, q]) =>
        `| ${name} | ${q.queries} | ${pct(q.recallAt1)} | ${pct(q.recallAt5)} | ${pct(q.recallAt10)} | ` +
        `${q.mrr.toFixed(3)} | ${pct(q.recallAt50)} | ${q.meanAnswerTokens.toFixed(0)} |`,
    ),
    "",
    "| tools | index build ms | search median ms | search p95 ms | searches |",
    "| ---: | ---: | ---: | ---: | ---: |",
    ...result.timing.map(
      (t) => `| ${t.tools} | ${ms(t.buildMs)} | ${ms(t.medianMs)} | ${ms(t.p95Ms)} | ${t.searches} |`,
    ),
  ];
  if (result.failures) {
    // The tuning splits asked for; the tune split when only the held-out one was.
    const tuning = SPLITS.filter((split) => !AGGREGATES_ONLY.has(split));
    const missSplits: Split[] = tuning.length > 0 ? tuning : ["tune"];
    const shown = result.failures.filter((f) => missSplits.includes(f.split));
    lines.push("", `misses of the ${missSplits.join(" and ")} split (not ranked first): ${shown.length}`);
    for (const f of shown) {
      const rank = f.rank === null ? ">50" : String(f.rank);
      lines.push(
        `${f.id.padEnd(20)} rank ${rank.padStart(3)} ${f.lexical ? "lex   " : "nonlex"} ${f.split.padEnd(4)} "${f.query}"`,
        `${"".padEnd(20)} want ${f.expected}; got ${f.top.join(", ")}`,
      );
    }
  }
  return lines.join("\n");
}

main();
