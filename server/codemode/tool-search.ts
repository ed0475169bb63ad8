// Tool search for code mode: the agent sees `search_tools` and `execute_code`, finds tools by free text
// ("delete an order", "what are the lat/long of …") and calls them as `await tools.orders.delete_order(args)`.
// Offline and embedded: identifiers split into words (product names whole), stemmed, expanded with a
// thesaurus and WordNet, scored with BM25F over name, title, server, arguments and descriptions, then by how
// much of the tool's name (its action and object) the query covers and whether the query names its server.
// The pieces live in ./search/.
import { compareCodeUnits } from "../../lib/compare-code-units";
import { accessorFor, argsSummary, toolDeclaration, type SearchableTool } from "./declarations";
import { distinctionNotes } from "./search/distinguish";
import { expandQuery, type QueryWord } from "./search/expand-query";
import { buildFieldIndex, postingHas, type FieldIndex, type FieldWeights } from "./search/field-index";
import { termOf } from "./search/normalize";
import { rankTools, type RankDoc } from "./search/rank";
import { actionsOf } from "./search/thesaurus";
import { words } from "./search/words";

export { accessorFor, type SearchableTool } from "./declarations";

/** A tool as indexed: its definition and, when the catalog has one, its server's one-line description. */
export type IndexableTool = SearchableTool & { serverDescription?: string | null };

export type SearchDetail = "name" | "summary" | "full";
export type SearchOptions = {
  detail?: SearchDetail;
  limit?: number;
  /** Only this server's tools (its slug, as in `<server>__<tool>`). */
  server?: string;
};
export type ToolHit = {
  name: string;
  call: string;
  description?: string;
  args?: string;
  declaration?: string;
  /** Set when a near-duplicate is in the same answer: what this one does that the other does not. */
  note?: string;
};
export type SearchAnswer = {
  tools: ToolHit[];
  /** The best match shares little with the query: the right tool may not be in the answer. */
  weak?: true;
  /** With `weak`: where to look instead. */
  hint?: string;
};
export type ToolIndex = { search(query: string, opts?: SearchOptions): SearchAnswer; size: number };

export const DEFAULT_LIMIT = 10;
export const MAX_LIMIT = 50;
const MAX_SUMMARY_CHARS = 160;
// Every query word costs a few postings and maybe a walk of the vocabulary; a pasted essay is cut here.
const MAX_QUERY_CHARS = 500;
// Arguments of a hostile schema are indexed up to here; more would only dilute the document.
const MAX_ARG_TERMS = 200;
// Near-duplicates are told apart among the first answers scoring close to the best, where the model chooses.
const NOTED_HITS = 5;
const NOTED_SCORE_SHARE = 0.6;
// A match is weak when less than this share of the query's known words reach the best tool.
const WEAK_EVIDENCE = 0.35;
// Below this a word is reached only by a WordNet sense: too loose to count for or against a match.
const KNOWN_MATCH = 0.5;
// The catalog tool is built beside this one (server/codemode/browse-catalog.ts on the catalog branch).
export const WEAK_HINT =
  'No tool matches this well. browse_catalog() lists the servers you may use, browse_catalog({ server: "<name>" }) their tools; or search again with server set.';

type Field = "name" | "title" | "server" | "serverDescription" | "args" | "description" | "argDescriptions";

// The tool's own name says most, then its title, its server (every orders tool is about orders), argument
// names, descriptions and, least, argument descriptions. A name is short: its length barely normalises.
const FIELDS: FieldWeights<Field> = {
  name: { weight: 6, b: 0.3 },
  title: { weight: 4, b: 0.5 },
  server: { weight: 2.5, b: 0 },
  serverDescription: { weight: 0.5, b: 0.75 },
  args: { weight: 2, b: 0.75 },
  description: { weight: 1, b: 0.75 },
  argDescriptions: { weight: 0.5, b: 0.75 },
};

// Words every server name may carry that name no server in particular ("acme/api", "github-mcp-server").
const GENERIC_SERVER_WORDS = new Set(
  ["mcp", "server", "api", "service", "tool", "app", "official"].map((word) => termOf(word)!),
);

export function createToolIndex(tools: readonly IndexableTool[]): ToolIndex {
  const unique = [...new Map(tools.map((tool) => [tool.name, tool])).values()];
  const fields = unique.map(toFields);
  const index: FieldIndex = buildFieldIndex(fields, FIELDS);
  const docs: (RankDoc & { nameWords: string[]; allTerms: string[]; objectTerms: string[] })[] = unique.map((tool) => {
    const nameWords = words(tool.tool).filter((word) => termOf(word) !== null);
    const serverWords = new Set(serverNameTerms(tool.server));
    const allTerms = nameWords.map((word) => termOf(word)!);
    const ownTerms = allTerms.filter((term) => !serverWords.has(term) && !GENERIC_SERVER_WORDS.has(term));
    const nameTerms = ownTerms.length > 0 ? ownTerms : allTerms;
    return {
      server: tool.server,
      nameWords,
      allTerms,
      nameTerms,
      objectTerms: nameTerms.filter((t) => actionsOf(t).size === 0),
    };
  });
  const serverTerms = new Map<string, string[]>();
  for (const tool of unique) {
    for (const term of serverNameTerms(tool.server)) {
      const servers = serverTerms.get(term) ?? [];
      if (!servers.includes(tool.server)) servers.push(tool.server);
      serverTerms.set(term, servers);
    }
  }
  // A server's first word is its name ("linear", "brave", "everything"), not the English word.
  const serverNames = new Set(unique.flatMap((tool) => serverNameTerms(tool.server).slice(0, 1)));
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
      const expanded = expandQuery(query.slice(0, MAX_QUERY_CHARS), index, serverNames);
      const ranked = rankTools({ index, docs, query: expanded, serverTerms, onlyServer: opts.server })
        .sort((a, b) => b.score - a.score || compareCodeUnits(unique[a.id]!.name, unique[b.id]!.name))
        .slice(0, limit);
      const tools = ranked.map((result) => hit(result.id, detail));
      const contenders = ranked.slice(0, NOTED_HITS).filter((r) => r.score >= NOTED_SCORE_SHARE * ranked[0]!.score);
      const notes = distinctionNotes(
        contenders.map((r) => ({ ...docs[r.id]!, nameTerms: docs[r.id]!.allTerms, tool: unique[r.id]!.tool })),
      );
      notes.forEach((note, i) => {
        if (note) tools[i]!.note = note;
      });
      const answer: SearchAnswer = { tools };
      if (tools.length === 0 ? expanded.length > 0 : isWeak(index, expanded, ranked[0]!.id)) {
        answer.weak = true;
        answer.hint = WEAK_HINT;
      }
      return answer;
    },
  };
}

/** Whether the best tool answers too little of the query: most known words miss it, or only verbs reach it. */
function isWeak(index: FieldIndex, query: readonly QueryWord[], doc: number): boolean {
  let known = 0;
  let evidence = 0;
  let object = false;
  for (const word of query) {
    if (word.implied) continue;
    let reached = 0;
    for (const [term, weight] of word.expansions) {
      if (!postingHas(index.postings.get(term)!, doc)) continue;
      reached = Math.max(reached, weight);
      if (weight >= KNOWN_MATCH && (!word.action || actionsOf(term).size === 0)) object = true;
    }
    if (reached === 0 && Math.max(0, ...word.expansions.values()) < KNOWN_MATCH) continue;
    known++;
    evidence += reached;
  }
  return known > 0 && (!object || evidence / known < WEAK_EVIDENCE);
}

function serverNameTerms(server: string): string[] {
  return terms(server).filter((term) => !GENERIC_SERVER_WORDS.has(term));
}

/** Index terms of a text: its words, stop words dropped, stemmed. */
export function terms(text: string): string[] {
  return words(text).flatMap((word) => termOf(word) ?? []);
}

export function clampLimit(limit: number | undefined): number {
  if (limit === undefined || !Number.isFinite(limit)) return DEFAULT_LIMIT;
  return Math.min(MAX_LIMIT, Math.max(1, Math.floor(limit)));
}

function toFields(tool: IndexableTool): Record<Field, string[]> {
  const names: string[] = [];
  const descriptions: string[] = [];
  collectArgs(tool.inputSchema, tool.inputSchema, names, descriptions, new Set(), 0);
  return {
    name: terms(tool.tool),
    title: terms(tool.title ?? ""),
    server: serverNameTerms(tool.server),
    serverDescription: terms(tool.serverDescription ?? ""),
    args: names.flatMap(terms),
    description: terms(tool.description ?? ""),
    argDescriptions: descriptions.flatMap(terms),
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

/** Words of free text and identifiers alike: `delete_order`, `deleteOrder`, `do.thing`, "GitHub's PRs". */
export { words as tokenize } from "./search/words";

/** One word's index term: lower-case, function words dropped (null), stemmed ("orders" → "order"). */
export { termOf as processTerm } from "./search/normalize";

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
