// Search quality of code mode's search_tools: createToolIndex (server/codemode/tool-search.ts) over the dataset
// (508 tools, 245 task queries with one correct tool each), every query with default options.
//
//   npm run bench:search-quality                      # held-out report (recall@1/5/10, MRR@10, tokens, timing)
//   npm run bench:search-quality -- --split all       # tune and held-out
//   npm run bench:search-quality -- --failures        # misses of the TUNE split (held-out misses are never shown)
//   npm run bench:search-quality -- --json            # machine-readable
//   npm run bench:search-quality -- --option server=github --option detail=name   # extra search options
//   npm run bench:search-quality -- --runs 5 --no-scale
//
// Recall is measured at 500 tools only. Timing is measured at 500 and at 5,000 (the 500 under ten server-name
// variants, queries unchanged). Held-out queries report only aggregates: tune the ranker on the tune split.
import { parseArgs } from "node:util";
import { createToolIndex, MAX_LIMIT, type SearchOptions, type ToolIndex } from "../../../server/codemode/tool-search";
import { machineFacts } from "../../gateway/report";
import { answerTokens } from "./answer-tokens";
import { loadQueries, loadTools, toolKey, type DatasetQuery, type Split } from "./dataset";
import { percentile, rankOf, summarize, type QualitySummary, type QueryOutcome } from "./metrics";
import { replicated, SCALE_SUFFIXES, toSearchable } from "./searchable-tools";

type Options = SearchOptions & Record<string, unknown>;
type Scored = { query: DatasetQuery; outcome: QueryOutcome; rankWithin50: number | null; top: string[] };
type SubsetReport = QualitySummary & { recallAt50: number };
type Timing = { tools: number; buildMs: number; medianMs: number; p95Ms: number; searches: number };
type Failure = { id: string; query: string; expected: string; rank: number | null; lexical: boolean; top: string[] };
type Result = {
  machine: Record<string, string>;
  options: Options;
  dataset: Record<string, number>;
  quality: Record<string, SubsetReport>;
  timing: Timing[];
  failures: Failure[] | undefined;
};

const { values: args } = parseArgs({
  options: {
    json: { type: "boolean", default: false },
    split: { type: "string", default: "heldout" },
    failures: { type: "boolean", default: false },
    option: { type: "string", multiple: true, default: [] },
    runs: { type: "string", default: "5" },
    "no-scale": { type: "boolean", default: false },
  },
  strict: true,
});

const SPLITS: Split[] =
  args.split === "all" ? ["tune", "heldout"] : args.split === "tune" || args.split === "heldout" ? [args.split] : [];
if (SPLITS.length === 0) throw new Error(`--split must be heldout, tune or all (got ${args.split})`);
const RUNS = Number(args.runs);
if (!Number.isInteger(RUNS) || RUNS < 1) throw new Error(`--runs must be a positive integer (got ${args.runs})`);
const OPTIONS = parseOptions(args.option);

/** `key=value` pairs; a value that parses as JSON (numbers, booleans, arrays) is taken as such, else a string. */
function parseOptions(pairs: readonly string[]): Options {
  const options: Options = {};
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

function score(index: ToolIndex, queries: readonly DatasetQuery[], nameOf: Map<string, string>): Scored[] {
  return queries.map((query) => {
    const expected = nameOf.get(query.expected)!;
    const answer = index.search(query.query, { ...OPTIONS });
    const names = answer.tools.map((hit) => hit.name);
    const deep = index.search(query.query, { ...OPTIONS, limit: MAX_LIMIT }).tools.map((hit) => hit.name);
    return {
      query,
      outcome: { rank: rankOf(names, expected), answerTokens: answerTokens(answer) },
      rankWithin50: rankOf(deep, expected),
      top: names.slice(0, 3),
    };
  });
}

function subset(scored: readonly Scored[]): SubsetReport {
  const n = scored.length;
  return {
    ...summarize(scored.map((s) => s.outcome)),
    recallAt50: n === 0 ? 0 : scored.filter((s) => s.rankWithin50 !== null).length / n,
  };
}

function time(
  index: ToolIndex,
  queries: readonly DatasetQuery[],
  runs: number,
  buildMs: number,
  tools: number,
): Timing {
  for (const query of queries) index.search(query.query, { ...OPTIONS });
  const samples: number[] = [];
  for (let run = 0; run < runs; run++) {
    for (const query of queries) {
      const started = performance.now();
      index.search(query.query, { ...OPTIONS });
      samples.push(performance.now() - started);
    }
  }
  return {
    tools,
    buildMs,
    medianMs: percentile(samples, 50),
    p95Ms: percentile(samples, 95),
    searches: samples.length,
  };
}

function build(tools: Parameters<typeof createToolIndex>[0]): { index: ToolIndex; buildMs: number } {
  const started = performance.now();
  const index = createToolIndex(tools);
  return { index, buildMs: performance.now() - started };
}

function main(): void {
  const tools = loadTools();
  const queries = loadQueries();
  const searchable = tools.map((tool) => toSearchable(tool));
  const nameOf = new Map(tools.map((tool, i) => [toolKey(tool), searchable[i]!.name]));
  const real = new Set(tools.filter((tool) => tool.source !== undefined).map(toolKey));

  const small = build(searchable);
  const scored = score(small.index, queries, nameOf);
  const quality: Record<string, SubsetReport> = {};
  for (const split of SPLITS) {
    const inSplit = scored.filter((s) => s.query.split === split);
    quality[split] = subset(inSplit);
    quality[`${split} non-lexical`] = subset(inSplit.filter((s) => !s.query.lexical));
    quality[`${split} real tools`] = subset(inSplit.filter((s) => real.has(s.query.expected)));
  }

  const timing = [time(small.index, queries, RUNS, small.buildMs, searchable.length)];
  if (!args["no-scale"]) {
    const large = build(replicated(tools, SCALE_SUFFIXES));
    timing.push(time(large.index, queries, Math.max(1, Math.ceil(RUNS / 2)), large.buildMs, large.index.size));
  }

  // Only tune-split misses are ever listed: held-out misses must not steer the ranker.
  const failures: Failure[] | undefined = args.failures
    ? scored
        .filter((s) => s.query.split === "tune" && s.outcome.rank !== 1)
        .sort((a, b) => (a.rankWithin50 ?? 99) - (b.rankWithin50 ?? 99) || a.query.id.localeCompare(b.query.id))
        .map((s) => ({
          id: s.query.id,
          query: s.query.query,
          expected: nameOf.get(s.query.expected)!,
          rank: s.rankWithin50,
          lexical: s.query.lexical,
          top: s.top,
        }))
    : undefined;

  const dataset = {
    tools: tools.length,
    realTools: real.size,
    servers: new Set(tools.map((tool) => tool.server)).size,
    queries: queries.length,
  };
  const result: Result = { machine: machineFacts(), options: OPTIONS, dataset, quality, timing, failures };
  console.log(args.json ? JSON.stringify(result, null, 2) : render(result));
}

function render(result: Result): string {
  const pct = (v: number) => `${(v * 100).toFixed(1)}%`;
  const ms = (v: number) => (v < 10 ? v.toFixed(2) : v.toFixed(1));
  const m = result.machine;
  const lines = [
    `search_tools quality, ${m.date}, commit ${m.commit}; ${m.cpu} (${m.nproc} cores), node ${m.node}`,
    `dataset: ${result.dataset.tools} tools (${result.dataset.realTools} real) of ${result.dataset.servers} servers, ` +
      `${result.dataset.queries} queries; options ${JSON.stringify(result.options)}`,
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
    lines.push("", `tune-split misses (not ranked first): ${result.failures.length}`);
    for (const f of result.failures) {
      const rank = f.rank === null ? ">50" : String(f.rank);
      lines.push(
        `${f.id.padEnd(20)} rank ${rank.padStart(3)} ${f.lexical ? "lex   " : "nonlex"} "${f.query}"`,
        `${"".padEnd(20)} want ${f.expected}; got ${f.top.join(", ")}`,
      );
    }
  }
  return lines.join("\n");
}

main();
