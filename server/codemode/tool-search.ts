// Tool search for code mode: the agent sees `search_tools` and `execute_code`, finds tools by free text
// ("delete an order") and calls them as `await tools.orders.delete_order(args)`. BM25+ (MiniSearch) over the
// name words, title, argument names and descriptions, boosted in that order.
import MiniSearch from "minisearch";
import { compareCodeUnits } from "../../lib/compare-code-units";
import { splitIdentifier } from "../registry/split-identifier";
import { accessorFor, argsSummary, toolDeclaration, type SearchableTool } from "./declarations";

export { accessorFor, type SearchableTool } from "./declarations";

export type SearchDetail = "name" | "summary" | "full";
export type SearchOptions = { detail?: SearchDetail; limit?: number };
export type ToolHit = {
  name: string;
  call: string;
  description?: string;
  args?: string;
  declaration?: string;
};
export type SearchAnswer = { tools: ToolHit[] };
export type ToolIndex = { search(query: string, opts?: SearchOptions): SearchAnswer; size: number };

export const DEFAULT_LIMIT = 10;
export const MAX_LIMIT = 50;
const MAX_SUMMARY_CHARS = 160;
// Every query word costs a prefix and a fuzzy walk of the index; a pasted essay is cut here.
const MAX_QUERY_CHARS = 500;
// Arguments of a hostile schema are indexed up to here; more would only dilute the document.
const MAX_ARG_TERMS = 200;

type Doc = {
  id: number;
  name: string;
  server: string;
  title: string;
  args: string;
  description: string;
  argDescriptions: string;
};

// Function words carry no intent; "delete an order" is about "delete" and "order".
const STOP_WORDS = new Set(
  "a an and any all are as at be by can for from i in is it its me my of on or our please some that the this to with you your".split(
    " ",
  ),
);

// Boosts: the tool's own name says most, its server next (every orders tool is about orders), then title,
// argument names, the description and, least, argument descriptions.
const BOOST = { name: 6, title: 4, server: 2.5, args: 2, description: 1, argDescriptions: 0.5 } as const;

export function createToolIndex(tools: readonly SearchableTool[]): ToolIndex {
  const unique = [...new Map(tools.map((tool) => [tool.name, tool])).values()];
  const index = new MiniSearch<Doc>({
    fields: Object.keys(BOOST),
    tokenize,
    processTerm,
    searchOptions: {
      boost: { ...BOOST },
      prefix: (term) => term.length >= 3,
      // One edit from four letters ("ordr" → "order"), two from eight; shorter terms must match.
      fuzzy: (term) => (term.length >= 4 ? 0.2 : false),
      maxFuzzy: 2,
      combineWith: "OR",
    },
  });
  index.addAll(unique.map(toDoc));
  const declarations = new Map<number, string>();

  function hit(id: number, detail: SearchDetail): ToolHit {
    const tool = unique[id]!;
    const base = { name: tool.name, call: accessorFor(tool.server, tool.tool) };
    if (detail === "name") return base;
    const summary = {
      ...base,
      description: firstSentence(tool.description ?? tool.title ?? ""),
      args: argsSummary(tool.inputSchema),
    };
    if (detail === "summary") return summary;
    let declaration = declarations.get(id);
    if (declaration === undefined) {
      declaration = toolDeclaration(tool);
      declarations.set(id, declaration);
    }
    return { ...summary, declaration };
  }

  return {
    size: unique.length,
    search(query, opts = {}) {
      const limit = clampLimit(opts.limit);
      const detail = opts.detail ?? "summary";
      const ranked = index
        .search(query.slice(0, MAX_QUERY_CHARS))
        .map((result) => ({ id: result.id as number, score: result.score }))
        .sort((a, b) => b.score - a.score || compareCodeUnits(unique[a.id]!.name, unique[b.id]!.name));
      return { tools: ranked.slice(0, limit).map((result) => hit(result.id, detail)) };
    },
  };
}

export function clampLimit(limit: number | undefined): number {
  if (limit === undefined || !Number.isFinite(limit)) return DEFAULT_LIMIT;
  return Math.min(MAX_LIMIT, Math.max(1, Math.floor(limit)));
}

function toDoc(tool: SearchableTool, id: number): Doc {
  const names: string[] = [];
  const descriptions: string[] = [];
  collectArgs(tool.inputSchema, tool.inputSchema, names, descriptions, new Set(), 0);
  return {
    id,
    name: tool.tool,
    server: tool.server,
    title: tool.title ?? "",
    args: names.join(" "),
    description: tool.description ?? "",
    argDescriptions: descriptions.join(" \n "),
  };
}

// Argument names and descriptions, nested objects, array items, combinators and local $refs included.
function collectArgs(
  schema: unknown,
  root: Record<string, unknown>,
  names: string[],
  descriptions: string[],
  seen: Set<unknown>,
  depth: number,
): void {
  if (!isObject(schema) || seen.has(schema) || depth > 6 || names.length >= MAX_ARG_TERMS) return;
  seen.add(schema);
  const visit = (child: unknown) => collectArgs(child, root, names, descriptions, seen, depth + 1);
  if (typeof schema.$ref === "string") {
    const match = /^#\/(\$defs|definitions)\/(.+)$/.exec(schema.$ref);
    const defs = match ? root[match[1]!] : undefined;
    if (match && isObject(defs)) visit(defs[match[2]!]);
  }
  if (isObject(schema.properties)) {
    for (const [name, property] of Object.entries(schema.properties)) {
      if (names.length >= MAX_ARG_TERMS) return;
      names.push(name);
      if (isObject(property) && typeof property.description === "string") descriptions.push(property.description);
      visit(property);
    }
  }
  for (const key of ["items", "additionalProperties"] as const) visit(schema[key]);
  for (const key of ["anyOf", "oneOf", "allOf", "prefixItems"] as const) {
    const members = schema[key];
    if (Array.isArray(members)) members.forEach(visit);
  }
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** Words of free text and identifiers alike: `delete_order`, `deleteOrder`, `do.thing`, "Lösche Bestellung". */
export function tokenize(text: string): string[] {
  return text
    .split(/[\s\p{P}\p{S}]+/u)
    .flatMap((token) => (/^[A-Za-z0-9]+$/.test(token) ? splitIdentifier(token) : [token]))
    .filter((token) => token.length > 0);
}

/** Lower-case, drop function words, fold simple plurals so "orders" finds "order" and back. */
export function processTerm(term: string): string | null {
  const word = term.toLowerCase();
  if (STOP_WORDS.has(word)) return null;
  if (word.length > 4 && word.endsWith("ies")) return `${word.slice(0, -3)}y`;
  if (word.length > 4 && /(ches|shes|sses|xes)$/.test(word)) return word.slice(0, -2);
  if (word.length > 3 && word.endsWith("s") && !/(ss|us|is)$/.test(word)) return word.slice(0, -1);
  return word;
}

/** The first sentence, whitespace collapsed, at most 160 characters (cut at a word, with "…"). */
export function firstSentence(text: string, max = MAX_SUMMARY_CHARS): string {
  const flat = text.replace(/\s+/g, " ").trim();
  const end = /[.!?](?=\s|$)/.exec(flat);
  const sentence = end ? flat.slice(0, end.index + 1) : flat;
  if (sentence.length <= max) return sentence;
  const cut = sentence.slice(0, max - 1);
  const space = cut.lastIndexOf(" ");
  return `${(space > max / 2 ? cut.slice(0, space) : cut).replace(/[\s,;:]+$/, "")}…`;
}
