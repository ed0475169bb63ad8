// Mines the thesaurus's "mined" layer (D174) from example requests: for each tool of the bench catalog, eight
// requests it serves, written by eight writers who saw the tools and nothing else (no query of any split, no
// ranker, no thesaurus; example-requests.jsonl). Three requests that came out word for word as queries of the
// dataset were removed. A word of a request that the tool's own text lacks is related to the words of the
// tool's name and title that name what it acts on (not its action): of the requests that use the word (for
// tools that lack it, at least MIN_REQUESTS), at least MIN_SHARE are for tools whose name or title has the
// target. What is kept is word to word ("ping > message", "standup > event"), so it holds for any tool that
// uses those words, not only this catalog's.
//
//   npx tsx bench/codemode/search-quality/mine-relations.ts           # rewrites server/codemode/search/thesaurus-mined.ts
//   npx tsx bench/codemode/search-quality/mine-relations.ts --check   # exits 1 when that file is not what this writes
import { readFileSync } from "node:fs";
import path from "node:path";
import { exampleRequestsProblems } from "../../../lib/tool-examples";
import { termOf } from "../../../server/codemode/search/normalize";
import { actionsOf } from "../../../server/codemode/search/thesaurus";
import { nameOf, serverNameTerms, toFields } from "../../../server/codemode/search/tool-fields";
import { words } from "../../../server/codemode/search/words";
import { loadTools, toolKey, type DatasetQuery, type DatasetTool } from "./dataset";
import { writeOrCheck } from "./generated-module";
import { toSearchable } from "./searchable-tools";

const DIR = import.meta.dirname;
export const OUTPUT = path.resolve(DIR, "../../../server/codemode/search/thesaurus-mined.ts");
/** A word must be used by at least this many requests (for tools whose text lacks it). */
const MIN_REQUESTS = 2;
/** The share of those requests whose tool's name or title has the target. */
const MIN_SHARE = 0.3;
const MAX_TARGETS = 5;
// Words of names that name no object: the "API-" prefix of generated names, a tool being a tool.
const NO_OBJECT = new Set(["api", "tool", "mcp", "server"]);
// Arguments (paths, addresses, URLs) are what to act on; they relate to nothing.
const ARGUMENT = /\S*[\p{L}\d][./@][\p{L}\d]\S*/gu;

export type ExampleRequests = { tool: string; queries: string[] };

export function loadExampleRequests(): ExampleRequests[] {
  return readFileSync(path.join(DIR, "example-requests.jsonl"), "utf8")
    .split("\n")
    .filter((line) => line.trim().length > 0)
    .map((line) => JSON.parse(line) as ExampleRequests);
}

/** The ids of the dataset's queries that some request repeats, letter case and punctuation aside (none should). */
export function queriesRepeatedBy(requests: readonly ExampleRequests[], queries: readonly DatasetQuery[]): string[] {
  const normal = (text: string) =>
    text
      .toLowerCase()
      .replace(/[^\p{L}\p{N}]+/gu, " ")
      .trim();
  const written = new Set(requests.flatMap((entry) => entry.queries.map(normal)));
  return queries.filter((query) => written.has(normal(query.query))).map((query) => query.id);
}

/** The requests by tool key, each trimmed and checked as the REST API checks an admin's (lib/tool-examples.ts). */
export function checkedRequestsByTool(examples: readonly ExampleRequests[]): Map<string, string[]> {
  return new Map(
    examples.map((example) => {
      const requests = example.queries.map((query) => query.trim());
      const problems = exampleRequestsProblems(requests);
      if (problems.length > 0) throw new Error(`example requests of ${example.tool}: ${problems.map((p) => p.message).join("; ")}`);
      return [example.tool, requests];
    }),
  );
}

/** The mined lines, "asked > targets", sorted. */
export function mineRelations(tools: readonly DatasetTool[], examples: readonly ExampleRequests[]): string[] {
  const byKey = new Map(tools.map((tool) => [toolKey(tool), tool]));
  // Per asked term, the objects of the tool of each request that used it.
  const contexts = new Map<string, ReadonlySet<string>[]>();
  const spellings = new Map<string, Map<string, number>>();
  const spell = (word: string, term: string) => {
    const seen = spellings.get(term) ?? new Map<string, number>();
    seen.set(word, (seen.get(word) ?? 0) + 1);
    spellings.set(term, seen);
  };
  for (const { tool: key, queries } of examples) {
    const tool = byKey.get(key);
    if (!tool) throw new Error(`example requests name an unknown tool: ${key}`);
    const searchable = toSearchable(tool);
    // The tool's own text: its definition, not requests written for it (shipped ones included, D176).
    const { examples: _examples, knownRequests: _known, ...fields } = toFields(searchable);
    const own = new Set(Object.values(fields).flat());
    const server = new Set(serverNameTerms(searchable.server));
    const objects = new Set(
      [...nameOf(searchable).allTerms, ...fields.title].filter(
        (term) => !server.has(term) && !NO_OBJECT.has(term) && actionsOf(term).size === 0,
      ),
    );
    for (const word of [...words(tool.name), ...words(tool.title ?? "")]) {
      const term = termOf(word);
      if (term) spell(word, term);
    }
    for (const query of queries) {
      const text = query.replace(ARGUMENT, " ");
      const asked = new Set<string>();
      for (const word of words(text)) {
        if (!/^[a-z]{3,}$/.test(word)) continue;
        const term = termOf(word);
        if (!term || own.has(term) || server.has(term)) continue;
        spell(word, term);
        asked.add(term);
      }
      for (const term of asked) {
        const seen = contexts.get(term) ?? [];
        seen.push(objects);
        contexts.set(term, seen);
      }
    }
  }
  // A term's spelling: its most frequent word, ties by code units, so that the line reads back as the same term.
  const spelling = (term: string): string | undefined => {
    const [word] = [...(spellings.get(term) ?? [])].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))[0] ?? [];
    return word !== undefined && termOf(word) === term ? word : undefined;
  };
  const lines: string[] = [];
  for (const [term, seen] of contexts) {
    const left = spelling(term);
    if (seen.length < MIN_REQUESTS || !left) continue;
    const together = new Map<string, number>();
    for (const objects of seen) for (const object of objects) together.set(object, (together.get(object) ?? 0) + 1);
    const candidates = [...together]
      .filter(([, n]) => n / seen.length >= MIN_SHARE)
      .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1));
    const right = candidates
      .filter(([target, n]) => !candidates.some(([other, m]) => m > n && modifies(seen, target, other)))
      .slice(0, MAX_TARGETS)
      .flatMap(([target]) => spelling(target) ?? []);
    if (right.length > 0) lines.push(`${left} > ${right.join(" ")}`);
  }
  return lines.sort();
}

// A target that the word only ever met beside a more frequent one ("reverse" of `maps_reverse_geocode`, met only
// where "geocode" is) tells near-rivals apart by how this catalog happens to be worded: the word goes to the head.
function modifies(contexts: readonly ReadonlySet<string>[], target: string, head: string): boolean {
  return contexts.every((objects) => !objects.has(target) || objects.has(head));
}

export function renderModule(lines: readonly string[]): string {
  return [
    "// Generated by bench/codemode/search-quality/mine-relations.ts from example-requests.jsonl: do not edit. Words",
    '// people use for what a tool does (left of ">") and the words of tool names and titles they go with (right),',
    "// mined from eight written requests per tool of the bench catalog, none of them a query of any split (D174).",
    "/** Asked words > the words tools use, mined from example requests (D174). */",
    "export const MINED_IMPLIES: readonly string[] = [",
    ...lines.map((line) => `  ${JSON.stringify(line)},`),
    "];",
    "",
  ].join("\n");
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const text = renderModule(mineRelations(loadTools(), loadExampleRequests()));
  writeOrCheck(OUTPUT, text, "mine-relations.ts", `${text.split("\n").length - 7} lines`);
}
